/* ref_camera: the calibrated camera over vision's model (see the header). */
#include "ref_camera.h"

#include <stdlib.h>

#include "vis_camera.h"

struct ref_camera {
    vis_camera cam;
};

ref_camera *ref_camera_new(const calib_file *calib)
{
    ref_camera *c = malloc(sizeof *c);
    if (c)
        vis_camera_init(&c->cam, calib);
    return c;
}

void ref_camera_free(ref_camera *cam) { free(cam); }

bool ref_camera_to_board(const ref_camera *cam, const double px[2], double height_mm, double out[3])
{
    return vis_camera_pixel_to_plane(&cam->cam, px, height_mm, out);
}
