/* watch_source: the watch's sources, through capture's table of sources (watch_source.h). */
#include "watch_source.h"

#include "cap_rows.h"

bool watch_source_brings_setup(const char *source)
{
    const cap_row *row = source ? cap_rows_find(source) : NULL;
    return row && (row->flags & CAP_ROW_OWN_SETUP);
}

cap_source *watch_source_open(const char *source, const cap_source_config *ccfg, watch_session_config *cfg,
                              base_error *err)
{
    cap_source *cap = cap_source_open(source, ccfg, err);
    if (cap && cfg && cap_source_sees_projector(cap)) {
        /* The source's frames are lit by what the watch projects: every projector picture goes to it. */
        cfg->project = cap_source_project;
        cfg->project_ctx = cap;
    }
    return cap;
}
