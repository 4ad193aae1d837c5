/* ds_render_params: the renderer's defaults (ds_render_params.h). */
#include "ds_render_params.h"

void ds_render_params_default(ds_render_params *p)
{
    /* The classic style's look; the real style's sensor below. */
    *p = (ds_render_params){.seed = 1, .style = DS_STYLE_CLASSIC, .supersample = 2, .textures = 1, .figures = 1,
                            .figure_min_mm = 25, .figure_max_mm = 35, .figure_radius_mm = 6, .figure_back_mm = 11,
                            .spear_fraction = 0.3, .banner_fraction = 0.08, .figure_lean_max_deg = 12, .weapons = 1,
                            .hands = 0, .shadows = 1, .lamp = {600, 300, 2400}};
    p->effects = (cvs_effects){.light_gradient = 0.3, .light_angle = 0.7, .vignetting = 0.25, .blur_sigma_px = 0.7,
                               .noise_sigma = 2.5, .jpeg_quality = 92};
    cvs_sensor_default(&p->sensor);
}
