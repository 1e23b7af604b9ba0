/*
 * replay.c - runs a fuzz target's LLVMFuzzerTestOneInput on files, without
 * libFuzzer: how ctest replays the seed corpora and the regression inputs
 * of autotest/fuzz on every build (fuzz.replay.<target>), compiled by the
 * project's usual compiler. Arguments are files or directories (every
 * regular file in them, in name order); a directory that does not exist
 * counts as empty. A crash or a failed FUZZ_CHECK ends the run (abort);
 * the name of the file is printed before it runs.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_check.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;

    if (!f) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) {
                fclose(f);
                free(buf);
                fprintf(stderr, "replay: out of memory reading %s\n", path);
                return -1;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    /* An exact-size copy, so that ASan sees a read past the input. */
    unsigned char *exact = malloc(len ? len : 1);
    if (exact) {
        memcpy(exact, buf, len);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
    }
    free(buf);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;

    if (!d)
        return errno == ENOENT ? 0 : -1;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn) {
                rc = -1;
                break;
            }
            names = nn;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (!names[n]) {
            rc = -1;
            break;
        }
        snprintf(names[n++], l, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t k = 0; k < n; k++) {
        struct stat st;
        if (rc == 0 && stat(names[k], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[k]) < 0)
                rc = -1;
            else
                (*count)++;
        }
        free(names[k]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int rc;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = run_dir(argv[i], &count);
        } else if (stat(argv[i], &st) != 0 && errno == ENOENT) {
            rc = 0; /* no such corpus yet */
        } else {
            rc = run_file(argv[i]);
            count += rc == 0;
        }
        if (rc < 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
    }
    printf("replayed %d inputs\n", count);
    return 0;
}
