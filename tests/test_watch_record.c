/*
 * tableref watch --record through watch_record (fragmented MP4): the
 * recording of the test turn decodes frame for frame in ffprobe, the
 * illegal call's evidence clip is written and named in its events, a
 * kill -9 mid-recording leaves a playable file of whole fragments, a
 * full disk is one "error" event while the watch goes on to the end, and a
 * disk that stalls a few seconds is one "warning" with the dropped frames
 * counted.
 *
 * The turn is 33 frames at 5 fps (watch_test_util); the recorder cuts a
 * fragment at every keyframe, one a second of frame time: 5 frames, fewer
 * when a live pace (--realtime) dropped some on a busy machine.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ds_sequence.h"
#include "video_test_util.h"
#include "vision_test_util.h"
#include "watch_test_util.h"

#define FRAGMENT_FRAMES 5

/* The events of kind `kind` in a parsed log. */
static size_t count_events(cJSON **ev, size_t n, const char *kind)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += strcmp(wt_event_of(ev[i]), kind) == 0;
    return k;
}

static const char *str_of(const cJSON *e, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(e, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

Test(watch_record, the_recording_decodes_frame_for_frame_and_the_illegal_call_has_its_clip, .timeout = 120)
{
    wt_ensure_run();
    ds_sequence *q = wt_load_sequence();
    char path[2300], errors[2048];
    wt_path_in(path, sizeof path, "game.mp4");
    long frames = vid_probe_frames(path, errors, sizeof errors);
    cr_expect_eq(frames, ds_sequence_frame_count(q), "every watched frame recorded: %ld of %ld (%s)", frames,
                 ds_sequence_frame_count(q), errors);
    cr_expect_str_empty(errors);

    size_t n;
    wt_path_in(path, sizeof path, "game.events.jsonl");
    cJSON **ev = wt_read_jsonl(path, &n);
    cr_expect_eq(count_events(ev, n, "error"), 0, "a recording that works says nothing");
    /* The cavalry's 11" march (move 3) is the only ILLEGAL call: its call, its alert and one clip event. */
    char want[2400];
    wt_path_in(want, sizeof want, "game.clips/move-3.mp4");
    size_t named = 0, clips = 0;
    for (size_t i = 0; i < n; i++) {
        const char *k = wt_event_of(ev[i]);
        if ((strcmp(k, "move_checked") == 0 && wt_num_of(ev[i], "move") == 3) || strcmp(k, "alert") == 0) {
            cr_expect_str_eq(str_of(ev[i], "clip"), want, "%s names the clip", k);
            named++;
        } else if (strcmp(k, "move_checked") == 0) {
            cr_expect_null(cJSON_GetObjectItem(ev[i], "clip"), "a legal call has no clip");
        }
        if (strcmp(k, "clip") == 0) {
            clips++;
            cr_expect_str_eq(str_of(ev[i], "path"), want);
            cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(ev[i], "ok")), "the clip is written: %s",
                      str_of(ev[i], "message"));
            cr_expect_eq(wt_num_of(ev[i], "move"), 3);
            /* Window: [t - settle - 5 s, t + 1 s] around the settle at 6.0 s, from the keyframe at or before 0.4 s
               (0 s), to the last frame (6.4 s): exact frame times. */
            cr_expect_float_eq(wt_num_of(ev[i], "from_ms"), 0.0, 1e-6);
            cr_expect_float_eq(wt_num_of(ev[i], "to_ms"), 6400.0, 1e-6);
        }
    }
    cr_expect_eq(named, 2, "the call and its alert name the clip");
    cr_expect_eq(clips, 1, "one clip event");
    long clip_frames = vid_probe_frames(want, errors, sizeof errors);
    cr_expect_eq(clip_frames, 33, "the clip plays from 0.0 to 6.4 s: %ld frames (%s)", clip_frames, errors);
    cr_expect_str_empty(errors);
    wt_free_jsonl(ev, n);
    ds_sequence_free(q);
}

/* `tableref watch` on the turn at its own pace, recording to `record`, logging to `log`; its pid and stdout. */
static pid_t spawn_recording_watch(const char *record, const char *log, int *out_fd)
{
    char frames[2300], calib[2300], roster[2300];
    wt_path_in(frames, sizeof frames, "seq/frames");
    wt_path_in(calib, sizeof calib, "seq/calib.json");
    wt_path_in(roster, sizeof roster, "seq/roster.json");
    int po[2];
    cr_assert(pipe(po) == 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        dup2(po[1], 1);
        close(po[0]), close(po[1]);
        int null = open("/dev/null", 0);
        dup2(null, 0);
        char *argv[] = {(char *)vt_tableref_bin(), "watch", "--source", frames, "--calib", calib, "--roster", roster,
                        "--settle-ms", "600", "--realtime", "--quiet", "--replace", "--record", (char *)record,
                        "--log", (char *)log, NULL};
        execv(argv[0], argv);
        _exit(127);
    }
    close(po[1]);
    *out_fd = po[0];
    return pid;
}

/* Reads fd until a line holds `want`; false at its end or after `seconds`. */
static bool wait_for(int fd, const char *want, double seconds)
{
    char buf[16384];
    size_t n = 0;
    time_t end = time(NULL) + (time_t)seconds;
    while (time(NULL) <= end) {
        buf[n] = 0;
        if (strstr(buf, want))
            return true;
        fd_set s;
        FD_ZERO(&s);
        FD_SET(fd, &s);
        struct timeval tv = {1, 0};
        if (select(fd + 1, &s, NULL, NULL, &tv) <= 0)
            continue;
        ssize_t k = read(fd, buf + n, sizeof buf - 1 - n);
        if (k <= 0)
            return false;
        n += (size_t)k;
    }
    return false;
}

Test(watch_record, kill_9_mid_recording_leaves_a_playable_file_of_whole_fragments, .timeout = 120)
{
    wt_ensure_run();
    char record[2300], log[2300], errors[2048];
    wt_path_in(record, sizeof record, "killed-rec.mp4");
    wt_path_in(log, sizeof log, "killed-rec.jsonl");
    unlink(record), unlink(log);
    int out;
    pid_t pid = spawn_recording_watch(record, log, &out);
    /* Move 2 settles at 4.0 s of the turn: some whole fragments are on disk, the game is not over. */
    bool called = wait_for(out, "move 2:", 60);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    close(out);
    cr_assert(called, "watch never made its second call");
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    long frames = vid_probe_frames(record, errors, sizeof errors);
    /* Whole fragments only: ffprobe decodes every frame without an error. (Not a multiple of 5 frames: a live
       pace drops frames when the machine is busy, and a fragment is a second of frame time. The recorder's own
       suite counts fragments exactly.) */
    cr_expect_gt(frames, 0, "the killed recording plays: %s", errors);
    cr_expect_lt(frames, 33, "a killed watch recorded less than the turn");
    cr_expect_str_empty(errors, "ffprobe reads the file without an error");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n); /* every line complete */
    cr_expect_eq(count_events(ev, n, "stopped"), 0);
    wt_free_jsonl(ev, n);
}

Test(watch_record, a_full_disk_is_one_error_event_and_the_watch_goes_on, .timeout = 120)
{
    wt_ensure_run();
    if (geteuid() != 0)
        cr_skip_test("a full disk needs root to mount a small tmpfs (watch_record's own suite has the rest)");
    char dir[2300], record[2400], log[2300], errors[2048];
    wt_path_in(dir, sizeof dir, "full-disk");
    mkdir(dir, 0777);
    umount2(dir, MNT_DETACH);
    /* 512 kB: the first fragment fits (~375 kB of noisy 1280x960 frames), the second does not. */
    if (mount("tmpfs", dir, "tmpfs", 0, "size=512k") != 0)
        cr_skip_test("cannot mount a tmpfs here: %s", strerror(errno));
    snprintf(record, sizeof record, "%s/game.mp4", dir);
    wt_path_in(log, sizeof log, "full-disk.jsonl");
    unlink(log);
    int out;
    pid_t pid = spawn_recording_watch(record, log, &out);
    bool ended = wait_for(out, "watch: 33 frames", 90);
    int st;
    waitpid(pid, &st, 0);
    close(out);
    long frames = vid_probe_frames(record, errors, sizeof errors);
    umount2(dir, MNT_DETACH);
    rmdir(dir);
    cr_assert(ended, "the watch went on to the end of the turn");
    cr_expect_eq(vt_exit_status(st), 1, "the cavalry's illegal march still ends the watch with 1");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    size_t errs = 0, after = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(wt_event_of(ev[i]), "error") == 0) {
            errs++;
            cr_expect_str_eq(str_of(ev[i], "what"), "recording");
            cr_expect(strstr(str_of(ev[i], "message"), record), "the message names the file: %s",
                      str_of(ev[i], "message"));
        } else if (errs) {
            after++;
        }
    }
    cr_expect_eq(errs, 1, "one error event for the full disk");
    cr_expect_eq(count_events(ev, n, "move_checked"), 3, "every call made after the disk filled");
    cr_expect_eq(count_events(ev, n, "stopped"), 1);
    cr_expect_gt(after, 0, "events follow the error");
    cr_expect_gt(frames, 0, "the recording up to the full disk plays: %s", errors);
    cr_expect_leq(frames, 2 * FRAGMENT_FRAMES, "it ends where the disk filled (about 2 s in 512 kB): %ld frames",
                 frames);
    cr_expect_str_empty(errors);
    wt_free_jsonl(ev, n);
}

/* A second game recorded beside the first (same FILE.mp4, --replace): the first game's clip of move 3
 * is evidence and is kept; the new clip takes the next free name and its events say so. */
Test(watch_record, an_earlier_games_clip_is_kept_and_the_new_one_named_around_it, .timeout = 120)
{
    wt_ensure_run();
    char dir[2300], clips[2400], old_clip[2500], new_clip[2500], record[2400], log[2400], cmd[12000];
    wt_path_in(dir, sizeof dir, "earlier-game");
    wt_cmdf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/game.clips'", dir, dir);
    cr_assert_eq(wt_run(cmd), 0);
    snprintf(clips, sizeof clips, "%s/game.clips", dir);
    snprintf(old_clip, sizeof old_clip, "%s/move-3.mp4", clips);
    snprintf(new_clip, sizeof new_clip, "%s/move-3-2.mp4", clips);
    snprintf(record, sizeof record, "%s/game.mp4", dir);
    snprintf(log, sizeof log, "%s/game.jsonl", dir);
    FILE *f = fopen(old_clip, "wb");
    cr_assert_not_null(f);
    fputs("the earlier game's evidence", f);
    fclose(f);
    /* Written an hour ago: before this game. */
    struct timespec then[2];
    clock_gettime(CLOCK_REALTIME, &then[0]);
    then[0].tv_sec -= 3600;
    then[1] = then[0];
    cr_assert_eq(utimensat(AT_FDCWD, old_clip, then, 0), 0);
    wt_cmdf(cmd, sizeof cmd,
            "'%s' watch --source '%s/seq/frames' --calib '%s/seq/calib.json' --roster '%s/seq/roster.json' "
            "--settle-ms %d --replace --record '%s' --log '%s' --quiet </dev/null >/dev/null 2>'%s/stderr.txt'",
            vt_tableref_bin(), wt_work_dir(), wt_work_dir(), wt_work_dir(), SETTLE_MS, record, log, dir);
    cr_expect_eq(wt_run(cmd), 1, "the cavalry's illegal march ends the watch with 1");
    char kept[64] = "";
    f = fopen(old_clip, "rb");
    cr_assert_not_null(f, "the earlier clip is still there");
    size_t got = fread(kept, 1, sizeof kept - 1, f);
    kept[got] = '\0';
    fclose(f);
    cr_expect_str_eq(kept, "the earlier game's evidence");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    size_t clip_events = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(wt_event_of(ev[i]), "clip") == 0) {
            clip_events++;
            cr_expect_str_eq(str_of(ev[i], "path"), new_clip);
            cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(ev[i], "ok")), "%s", str_of(ev[i], "message"));
            cr_expect_eq(wt_num_of(ev[i], "move"), 3);
        }
    cr_expect_eq(clip_events, 1);
    char errors[2048];
    long clip_frames = vid_probe_frames(new_clip, errors, sizeof errors);
    cr_expect_eq(clip_frames, 33, "the new clip plays: %ld frames (%s)", clip_frames, errors);
    wt_free_jsonl(ev, n);
}

/* A recording never replaces the video it watches, nor writes through a symbolic link: the watch refuses to start
 * (exit 2, naming both options; issue 31) and the file is left as it was. */
Test(watch_record, a_recording_never_replaces_its_source_nor_follows_a_link, .timeout = 120)
{
    wt_ensure_run();
    char dir[2300], video[2400], link_path[2400], game[2300], cmd[12000];
    wt_path_in(dir, sizeof dir, "own-input");
    wt_path_in(game, sizeof game, "game.mp4");
    snprintf(video, sizeof video, "%s/v.mp4", dir);
    snprintf(link_path, sizeof link_path, "%s/link.mp4", dir);
    wt_cmdf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp '%s' '%s' && ln -s '%s' '%s'", dir, dir, game, video,
            video, link_path);
    cr_assert_eq(wt_run(cmd), 0);
    struct stat before;
    cr_assert_eq(stat(video, &before), 0);
    const char *records[2] = {video, link_path};
    for (int k = 0; k < 2; k++) {
        wt_cmdf(cmd, sizeof cmd,
                "'%s' watch --source '%s' --calib '%s/seq/calib.json' --roster '%s/seq/roster.json' --settle-ms %d "
                "--replace --record '%s' --quiet </dev/null >/dev/null 2>'%s/stderr.txt'",
                vt_tableref_bin(), k == 0 ? video : game, wt_work_dir(), wt_work_dir(), SETTLE_MS, records[k], dir);
        int rc = wt_run(cmd);
        cr_expect_eq(rc, 2, "refused before the game starts: exit %d", rc);
        char said[4096], errpath[2400];
        snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
        vt_file_head(errpath, said, sizeof said);
        cr_expect(strstr(said, k == 0 ? "v.mp4 is also --source " : "link.mp4: cannot write: a symbolic link"),
                  "%s", said);
        struct stat after;
        cr_assert_eq(stat(video, &after), 0);
        cr_expect_eq(after.st_size, before.st_size, "the video is untouched");
        cr_expect_eq(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
        cr_expect_eq(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    }
}

/* Runs a shell command made from fmt and one argument used everywhere it appears as %1$s; its exit status. */
static int sh1(const char *fmt, const char *a)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, fmt, a);
    return vt_exit_status(system(cmd));
}

/* `tableref watch` on the turn at its own pace, recording to `record`, its log and subtitles elsewhere. */
static pid_t spawn_watch_subtitles_apart(const char *record, const char *log, const char *vtt, int *out_fd)
{
    char frames[2300], calib[2300], roster[2300];
    wt_path_in(frames, sizeof frames, "seq/frames");
    wt_path_in(calib, sizeof calib, "seq/calib.json");
    wt_path_in(roster, sizeof roster, "seq/roster.json");
    char *argv[] = {(char *)vt_tableref_bin(), "watch", "--source", frames, "--calib", calib, "--roster", roster,
                    "--settle-ms", "600", "--realtime", "--replace", "--record", (char *)record, "--log",
                    (char *)log, "--vtt", (char *)vtt, NULL};
    int po[2];
    cr_assert(pipe(po) == 0);
    const int null = open("/dev/null", O_RDONLY); /* before the fork: the child only dups, closes and execs */
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(null, 0);
        close(po[0]), close(po[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(null);
    close(po[1]);
    *out_fd = po[0];
    return pid;
}

/* A disk that stops taking writes for 3 s mid-game (an ext4 loop image frozen with fsfreeze once the recording has
 * started, an SD card's stall): the recorder drops the live frames it cannot take, by design (the referee never
 * waits for it), and the watch says so: one "warning" (what: recording) at the first drop, the counts in "stopped"
 * and in the summary line; the video holds every other frame. The log and subtitles are on another disk: they are
 * written (and synced) by the watch's own thread (watch_log.h, watch_vtt.h). */
Test(watch_record, frames_a_stalled_disk_cannot_take_are_a_warning_and_counted, .timeout = 120)
{
    wt_ensure_run();
    if (geteuid() != 0)
        cr_skip_test("needs root to mount and freeze a loop file system");
    char dir[2300], record[2400], log[2300], vtt[2300], errors[2048];
    wt_path_in(dir, sizeof dir, "frozen-disk");
    sh1("umount '%1$s' 2>/dev/null; rm -rf '%1$s' '%1$s.img'; mkdir -p '%1$s'", dir);
    /* Never freeze anything but this image: a freeze of the file system around dir would stop the machine. */
    if (sh1("truncate -s 16M '%1$s.img' && mkfs.ext4 -q -F '%1$s.img' >/dev/null 2>&1 && "
            "mount -o loop '%1$s.img' '%1$s' 2>/dev/null && mountpoint -q '%1$s'", dir) != 0) {
        sh1("umount '%1$s' 2>/dev/null; rm -f '%1$s.img'", dir);
        cr_skip_test("cannot mount an ext4 loop image here");
    }
    snprintf(record, sizeof record, "%s/game.mp4", dir);
    wt_path_in(log, sizeof log, "frozen-disk.jsonl");
    wt_path_in(vtt, sizeof vtt, "frozen-disk.vtt");
    unlink(log);
    int out;
    pid_t pid = spawn_watch_subtitles_apart(record, log, vtt, &out);
    struct stat st;
    const struct timespec tick = {0, 10000000L};
    for (int waited = 0; waited < 30000 && !(stat(record, &st) == 0 && st.st_size > 0); waited += 10)
        nanosleep(&tick, NULL);
    pid_t guard = fork(); /* a safety thaw in case this test dies while the disk is frozen */
    if (guard == 0) {
        sleep(30);
        execlp("fsfreeze", "fsfreeze", "-u", dir, (char *)NULL);
        _exit(1);
    }
    const int froze = sh1("fsfreeze -f '%1$s'", dir);
    sleep(3);
    sh1("fsfreeze -u '%1$s'", dir);
    kill(guard, SIGKILL);
    waitpid(guard, NULL, 0);
    bool ended = wait_for(out, "of 33 frames dropped\n", 90); /* "watch: 33 frames, ..., recording: N of 33 ..." */
    int status;
    waitpid(pid, &status, 0);
    close(out);
    long frames = vid_probe_frames(record, errors, sizeof errors);
    sh1("umount '%1$s'; rm -f '%1$s.img'; rmdir '%1$s'", dir);
    cr_assert_eq(froze, 0, "fsfreeze froze the loop image");
    cr_assert(ended, "the watch went on to the end of the turn, and its summary line names the dropped frames");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    size_t warnings = 0;
    const cJSON *stopped = NULL;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(wt_event_of(ev[i]), "warning") == 0 && strcmp(str_of(ev[i], "what"), "recording") == 0) {
            warnings++;
            cr_expect(strstr(str_of(ev[i], "message"), "dropped"), "%s", str_of(ev[i], "message"));
        }
        if (strcmp(wt_event_of(ev[i]), "stopped") == 0)
            stopped = ev[i];
    }
    cr_expect_eq(warnings, 1, "one warning at the first dropped frame");
    cr_expect_eq(count_events(ev, n, "error"), 0, "the disk came back: the recording did not fail");
    cr_expect_eq(count_events(ev, n, "move_checked"), 3, "every call made");
    cr_assert_not_null(stopped);
    const long given = (long)wt_num_of(stopped, "record_frames"), dropped = (long)wt_num_of(stopped,
                                                                                           "record_frames_dropped");
    cr_expect_eq(given, 33, "every frame of the turn given to the recorder");
    cr_expect_gt(dropped, 0, "the frames the frozen disk could not take are counted");
    cr_expect_eq(frames, given - dropped, "the video holds every frame not counted as dropped: %ld of %ld - %ld (%s)",
                 frames, given, dropped, errors);
    cr_expect_str_empty(errors);
    wt_free_jsonl(ev, n);
}
