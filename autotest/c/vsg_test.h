/*
 * vsg_test.h - a minimal test harness for the C unit tests (ctest runs each
 * executable; a non-zero exit is a failure). CHECK records and continues,
 * REQUIRE records and returns from the current test function.
 */
#ifndef VSG_TEST_H
#define VSG_TEST_H

#include <stdio.h>

static int vsg_test_failures;
static int vsg_test_checks;

#define CHECK(cond)                                                          \
    do {                                                                     \
        vsg_test_checks++;                                                   \
        if (!(cond)) {                                                       \
            vsg_test_failures++;                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
        }                                                                    \
    } while (0)

#define REQUIRE(cond)                                                        \
    do {                                                                     \
        vsg_test_checks++;                                                   \
        if (!(cond)) {                                                       \
            vsg_test_failures++;                                             \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                        \
            return;                                                          \
        }                                                                    \
    } while (0)

#define RUN(test_fn)                                                         \
    do {                                                                     \
        int before_ = vsg_test_failures;                                     \
        test_fn();                                                           \
        fprintf(stderr, "%s %s\n",                                           \
                vsg_test_failures == before_ ? "ok  " : "FAIL", #test_fn);   \
    } while (0)

#define TEST_SUMMARY()                                                       \
    (fprintf(stderr, "%d checks, %d failures\n", vsg_test_checks,            \
             vsg_test_failures),                                             \
     vsg_test_failures ? 1 : 0)

#endif
