#include <criterion/criterion.h>

#include "base_geom.h"
#include "rules_arcs.h"

#define EPS 1e-9

Test(geom, angle_wrap_stays_in_half_open_range)
{
    cr_assert_float_eq(base_angle_wrap(3 * BASE_PI), BASE_PI, EPS);
    cr_assert_float_eq(base_angle_wrap(-BASE_PI), BASE_PI, EPS);
    cr_assert_float_eq(base_angle_wrap(-0.5), -0.5, EPS);
    cr_assert_float_eq(base_angle_wrap_2pi(-0.5), 2 * BASE_PI - 0.5, EPS);
    cr_assert_float_eq(base_angle_wrap_2pi(4 * BASE_PI + 1), 1.0, EPS);
}

Test(geom, frame_local_u_is_right_of_heading)
{
    base_frame f = {base_v2(10, 20), BASE_PI / 2}; /* facing +y: right is +x */
    base_vec2 q = base_frame_to_local(f, base_v2(13, 24));
    cr_assert_float_eq(q.x, 3, EPS);
    cr_assert_float_eq(q.y, 4, EPS);
    base_vec2 p = base_frame_to_board(f, q);
    cr_assert_float_eq(p.x, 13, EPS);
    cr_assert_float_eq(p.y, 24, EPS);
}

Test(geom, obb_corners_counter_clockwise_from_front_left)
{
    base_obb b = {base_v2(0, 0), BASE_PI / 2, 4, 2}; /* 4 wide, 2 deep, facing +y */
    base_vec2 c[4];
    base_obb_corners(&b, c);
    cr_assert_float_eq(c[0].x, -2, EPS);
    cr_assert_float_eq(c[0].y, 1, EPS);
    cr_assert_float_eq(c[2].x, 2, EPS);
    cr_assert_float_eq(c[2].y, -1, EPS);
    cr_assert_float_eq(base_poly_area(c, 4), 8, EPS);
    base_vec2 fc = base_obb_front_centre(&b);
    cr_assert_float_eq(fc.x, 0, EPS);
    cr_assert_float_eq(fc.y, 1, EPS);
}

Test(geom, segment_distances)
{
    cr_assert_float_eq(base_seg_point_dist(base_v2(0, 0), base_v2(10, 0), base_v2(5, 3)), 3, EPS);
    cr_assert_float_eq(base_seg_point_dist(base_v2(0, 0), base_v2(10, 0), base_v2(13, 4)), 5, EPS);
    cr_assert_float_eq(base_seg_seg_dist(base_v2(0, 0), base_v2(10, 0), base_v2(0, 2), base_v2(10, 3)), 2, EPS);
    cr_assert_float_eq(base_seg_seg_dist(base_v2(0, 0), base_v2(10, 10), base_v2(0, 10), base_v2(10, 0)), 0, EPS);
    cr_assert(base_seg_intersect(base_v2(0, 0), base_v2(2, 0), base_v2(2, 0), base_v2(3, 5)), "touching ends");
}

Test(geom, polygon_distance_and_overlap)
{
    base_vec2 a[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
    base_vec2 far[4] = {{13, 4}, {20, 4}, {20, 8}, {13, 8}};
    base_vec2 inside[3] = {{2, 2}, {4, 2}, {3, 4}};
    base_vec2 touching[4] = {{10, 0}, {12, 0}, {12, 2}, {10, 2}};
    cr_assert_float_eq(base_poly_dist(a, 4, far, 4), 3, EPS);
    cr_assert_not(base_poly_overlap(a, 4, far, 4));
    cr_assert(base_poly_overlap(a, 4, inside, 3), "contained polygon overlaps");
    cr_assert_float_eq(base_poly_dist(a, 4, inside, 3), 0, EPS);
    cr_assert(base_poly_overlap(a, 4, touching, 4), "touching counts as overlap");
}

Test(geom, non_convex_polygon_contains)
{
    /* a U shape: the notch is outside */
    base_vec2 u[8] = {{0, 0}, {30, 0}, {30, 30}, {20, 30}, {20, 10}, {10, 10}, {10, 30}, {0, 30}};
    cr_assert(base_poly_contains(u, 8, base_v2(5, 20)));
    cr_assert_not(base_poly_contains(u, 8, base_v2(15, 20)));
    cr_assert(base_poly_contains(u, 8, base_v2(15, 10)), "boundary counts as inside");
}

Test(geom, obb_distance_rotated)
{
    base_obb a = {base_v2(0, 0), 0, 10, 10};
    base_obb b = {base_v2(20, 0), BASE_PI / 4, 10, 10}; /* a diamond: its corner at x = 20 - 7.07 */
    cr_assert_float_eq(base_obb_dist(&a, &b), 20 - 5 * sqrt(2) - 5, 1e-9);
}

Test(geom, arcs_split_at_the_corner_diagonals)
{
    base_obb b = {base_v2(0, 0), BASE_PI / 2, 100, 40}; /* facing +y: front edge y = 20, right edge x = 50 */
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(0, 100), 0), RULES_ARC_FRONT);
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(0, -100), 0), RULES_ARC_REAR);
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(200, 0), 0), RULES_ARC_RIGHT);
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(-200, 10), 0), RULES_ARC_LEFT);
    /* beyond the front-right corner: front if farther ahead than aside */
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(60, 40), 0), RULES_ARC_FRONT);
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(80, 40), 0), RULES_ARC_RIGHT);
    /* on the dividing line: in both */
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(70, 40), 1e-9), RULES_ARC_FRONT | RULES_ARC_RIGHT);
    cr_assert_eq(rules_obb_arcs_of(&b, base_v2(0, 0), 0), 0u, "inside the boundary: no arc");
}

/* The fast rectangle distance (only edges facing the other box, squared distances) against the polygon one. */
Test(geom, rectangle_distance_matches_the_polygon_distance_on_random_pairs)
{
    unsigned long long s = 12345;
    for (int k = 0; k < 20000; k++) {
        double r[8];
        for (int i = 0; i < 8; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            r[i] = (s >> 11) * (1.0 / 9007199254740992.0);
        }
        base_obb a = {{0, 0}, r[0] * 7, 10 + 100 * r[1], 10 + 60 * r[2]};
        base_obb b = {{300 * (r[3] - 0.5), 300 * (r[4] - 0.5)}, r[5] * 7, 10 + 100 * r[6], 10 + 60 * r[7]};
        base_vec2 ka[4], kb[4];
        base_obb_corners(&a, ka);
        base_obb_corners(&b, kb);
        cr_assert_float_eq(base_obb_dist(&a, &b), base_poly_dist(ka, 4, kb, 4), 1e-9, "pair %d", k);
    }
}
