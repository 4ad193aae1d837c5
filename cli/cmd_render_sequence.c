/* tableref render-sequence: render a game turn as a video's frames, with the truth, for tableref watch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "ds_hard.h"
#include "ds_sequence.h"

static const cli_doc doc = {
    "render-sequence",
    "usage: tableref render-sequence SEQUENCE.json --out DIR [--supersample N]\n"
    "       tableref render-sequence --generate hard[:K]|minis[:K] --out DIR [--crop WxH+X+Y] [--supersample N]\n"
    "\n"
    "Renders a game turn (a sequence file: a scene and the moves, docs/formats.md)\n"
    "as a camera would film it: the table still, a hand moving one unit, the table\n"
    "still again, ... Writes into DIR:\n"
    "  frames/NNNNNN.jpg   the frames (watch them with --source DIR/frames)\n"
    "  calib.json, roster.json   for tableref watch\n"
    "  truth/keyframe-K.json     the exact table after K moves\n"
    "  frames.json               each frame's time and phase (hold or move)\n"
    "\n",
    "\n"
    "--supersample 1 renders about 4x faster with rougher edges.\n"
    "--generate hard:K films hard table K (datasets/hard/README.md, 12 MP, colour):\n"
    "a 4.5\" advance at Advance 5\" (legal), then an 11\" march at March 10\"\n"
    "(illegal), 5 fps; --crop films part of the frame (it must hold the principal point).\n"
    "--generate minis:K films the same turn on table K of the miniatures set (figures\n"
    "standing as real ones do, rim labels and masts; tables 1-3 12 MP, 4 the 4K webcam).\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage.\n",
    "SEQ",
};

int cmd_render_sequence(int argc, char **argv)
{
    const char *seq = NULL, *out = NULL, *gen = NULL, *crop = NULL;
    double ss = 0;
    const cli_opt opts[] = {
        CLI_OUT_DIR("--out", &out, "DIR", "frames/*.jpg truth/keyframe-*.json calib.json roster.json frames.json",
                    "where to write the frames"),
        CLI_CHOICE("--generate", &gen, "SET[:K]", "hard minis",
                   "film table K of the hard or the miniatures set instead of reading a sequence"),
        CLI_STRING("--crop", &crop, "WxH+X+Y", "(with --generate) film only that part of the frame"),
        CLI_WHOLE("--supersample", &ss, "N", 1, 4, "samples per pixel side (default: the sequence's)"),
    };
    int n_pos = cli_parse(&doc, argc, argv, opts, CLI_N(opts), &seq, 1);
    if (n_pos < 0)
        return cli_status(n_pos);
    if (!seq && !gen)
        return cli_missing("render-sequence", "the SEQUENCE.json (or --generate hard[:K])"), EXIT_BAD_INPUT;
    if (!out)
        return cli_missing("render-sequence", "--out DIR (where to write the frames)"), EXIT_BAD_INPUT;
    if ((seq && gen) || (crop && !gen)) {
        cli_help(stderr, &doc, opts, CLI_N(opts));
        return EXIT_BAD_INPUT;
    }
    base_error err;
    ds_sequence *q = NULL;
    if (gen) {
        const int minis = strncmp(gen, "minis", 5) == 0 && (gen[5] == 0 || gen[5] == ':');
        const char *tail = gen + (minis ? 5 : 4);
        if (!minis && (strncmp(gen, "hard", 4) != 0 || (*tail != 0 && *tail != ':'))) {
            fprintf(stderr, "tableref render-sequence: --generate takes hard[:K] or minis[:K]\n");
            return EXIT_BAD_INPUT;
        }
        const int k = *tail == ':' ? atoi(tail + 1) : 1, most = minis ? ds_hard_minis_count() : ds_hard_preset_count();
        if (k < 1 || k > most) {
            fprintf(stderr, "tableref render-sequence: %s tables are 1..%d\n", minis ? "minis" : "hard", most);
            return EXIT_BAD_INPUT;
        }
        q = minis ? ds_sequence_minis(k, crop, &err) : ds_sequence_hard(k, crop, &err);
    } else {
        q = ds_sequence_load(seq, &err);
    }
    /* The sequence and its scene are read: no frame or truth file may land on them (checked before rendering). */
    if (q && cli_plan_check("render-sequence") < 0) {
        ds_sequence_free(q);
        return EXIT_BAD_INPUT;
    }
    if (!q || ds_sequence_render(q, out, (int)ss, &err) < 0) {
        fprintf(stderr, "tableref render-sequence: %s\n", err.msg);
        ds_sequence_free(q);
        return EXIT_BAD_INPUT;
    }
    printf("rendered %ld frames (%zu moves, %.3g fps) -> %s/frames/\n", ds_sequence_frame_count(q), q->n_moves, q->fps,
           out);
    ds_sequence_free(q);
    return 0;
}
