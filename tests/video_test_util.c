/* video_test_util: the recording suites' frame count (video_test_util.h). */
#include "video_test_util.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vision_test_util.h"

long vid_probe_frames(const char *path, char *errors, size_t cap)
{
    char cmd[6000], errpath[2400];
    int len = snprintf(errpath, sizeof errpath, "%s.probe-err", path);
    cr_assert(len > 0 && (size_t)len < sizeof errpath, "path too long: %s", path);
    len = snprintf(cmd, sizeof cmd,
                   "ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
                   "-of csv=p=0 '%s' 2>'%s'",
                   path, errpath);
    cr_assert(len > 0 && (size_t)len < sizeof cmd, "command too long for %s", path);
    FILE *p = popen(cmd, "r");
    cr_assert(p, "ffprobe: %s", strerror(errno));
    long n = -1;
    if (fscanf(p, "%ld", &n) != 1)
        n = -1;
    if (vt_exit_status(pclose(p)) != 0)
        n = -1;
    vt_file_head(errpath, errors, cap);
    unlink(errpath);
    return n;
}
