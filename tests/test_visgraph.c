/*
 * The route search's pruning (tangent at both ends, wrapping bends) never
 * misses the shortest route: on random dense fields, starts and ends inside
 * growths and obstacles over the board's edge included, it finds exactly the
 * length the exhaustive search (every visible edge) finds. This test found
 * the two cases where the pruning must stand aside (see worth_trying).
 */
#include <criterion/criterion.h>

#include "rules_visgraph.h"

static unsigned long long state = 0x2545F4914F6CDD1Dull;
static double rnd(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (state >> 11) * (1.0 / 9007199254740992.0);
}

/* A random convex quad (a rotated rectangle) of 20-70 mm inside [x0, x0 + size]^2. */
static void random_rock(double x0, double size, base_vec2 out[4])
{
    base_vec2 c = {x0 + size * rnd(), x0 + size * rnd()};
    double w = 20 + 50 * rnd(), d = 20 + 50 * rnd(), a = BASE_PI * rnd();
    base_vec2 u = base_v2_dir(a), v = base_v2_dir(a + BASE_PI / 2);
    for (int k = 0; k < 4; k++) {
        double su = (k == 0 || k == 3) ? -0.5 : 0.5, sv = k < 2 ? -0.5 : 0.5;
        out[k] = base_v2_add(c, base_v2_add(base_v2_scale(u, su * w), base_v2_scale(v, sv * d)));
    }
}

Test(visgraph, pruned_search_finds_the_same_length_as_every_visible_edge)
{
    rules_visgraph *pruned = rules_visgraph_new(), *full = rules_visgraph_new();
    rules_route a = {0}, b = {0};
    int found = 0;
    for (int scene = 0; scene < 300; scene++) {
        int n = 5 + (int)(45 * rnd());
        double clearance = 5 + 35 * rnd();
        rules_visgraph_reset(pruned, 1000, 1000);
        rules_visgraph_reset(full, 1000, 1000);
        rules_visgraph_set_exhaustive(full, true);
        for (int k = 0; k < n; k++) {
            base_vec2 q[4];
            random_rock(scene % 3 ? 200 : -30, scene % 3 ? 600 : 1060, q); /* one scene in three over the edges */
            rules_visgraph_add_obstacle(pruned, q, 4, clearance);
            rules_visgraph_add_obstacle(full, q, 4, clearance);
        }
        for (int trip = 0; trip < 4; trip++) {
            base_vec2 from = {150 + 700 * rnd(), 150 + 700 * rnd()}, to = {150 + 700 * rnd(), 150 + 700 * rnd()};
            int ra = rules_visgraph_route(pruned, from, to, &a), rb = rules_visgraph_route(full, from, to, &b);
            cr_assert_eq(ra, rb, "scene %d trip %d: a route exists in one search only", scene, trip);
            if (ra == 0) {
                found++;
                cr_assert_float_eq(a.length_mm, b.length_mm, 1e-6 * (1 + b.length_mm), "scene %d trip %d: %f vs %f",
                                   scene, trip, a.length_mm, b.length_mm);
            }
        }
    }
    cr_assert_gt(found, 900, "most trips have a route (%d)", found);
    rules_route_clear(&a);
    rules_route_clear(&b);
    rules_visgraph_free(pruned);
    rules_visgraph_free(full);
}
