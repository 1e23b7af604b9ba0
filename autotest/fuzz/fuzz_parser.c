/*
 * fuzz_parser.c - the VSGPU SQL dialect (driver/dialect/) on arbitrary
 * statement text: vsg_sql_parse (with and without a tree), the construct
 * test of the DIALECT=VSGPU route, and the OGR SQL unparse of every
 * expression of an accepted statement, with and without a rename callback
 * (the binder's two uses). The tree is then freed: ASan reports leaks and
 * double frees. Invariants of vsgpu_sql.h are checked on the way.
 */
#include <string.h>

#include "fuzz_check.h"
#include "vsgpu_sql.h"

#define HEIGHT_LIMIT 1000 /* vsgpu_sql.h: "at most 1000 levels high" */

static int height(const vsg_expr *e)
{
    int h = 0;
    if (!e)
        return 0;
    for (int k = 0; k < e->n_args; k++) {
        int a = height(e->args[k]);
        if (a > h)
            h = a;
    }
    return h + 1;
}

/* Renames every other column and refuses names starting with 'z', as the
 * binder's callback refuses unknown columns. */
static const char *rename_cb(void *ctx, const char *qualifier, const char *name)
{
    int *calls = ctx;
    (*calls)++;
    (void)qualifier;
    if (name && name[0] == 'z')
        return NULL;
    return (*calls & 1) ? "renamed" : name;
}

static void unparse(const vsg_expr *e)
{
    char *s;
    int calls = 0;

    if (!e)
        return;
    FUZZ_CHECK(height(e) <= HEIGHT_LIMIT);
    s = vsg_expr_to_ogrsql(e, NULL, NULL);
    if (s)
        FUZZ_CHECK(strlen(s) > 0);
    free(s);
    s = vsg_expr_to_ogrsql(e, rename_cb, &calls);
    free(s);
}

static void check_error(const vsg_parse_error *err, size_t len)
{
    FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
    FUZZ_CHECK(err->pos >= 0 && (size_t)err->pos <= len);
    FUZZ_CHECK(err->line >= 1 && err->column >= 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *sql = malloc(size + 1);
    vsg_statement *stmt = NULL;
    vsg_parse_error err;
    vsg_parse_result rc, rc2;
    size_t len;

    if (!sql)
        return 0;
    memcpy(sql, data, size);
    sql[size] = '\0';
    len = strlen(sql); /* the C string ends at the first NUL */

    memset(&err, 0x5a, sizeof err);
    rc = vsg_sql_parse(sql, &stmt, &err);
    FUZZ_CHECK((rc == VSG_PARSE_OK) == (stmt != NULL));
    if (rc == VSG_PARSE_SYNTAX_ERROR)
        check_error(&err, len);

    /* Checking only: the same verdict, nothing allocated for the caller. */
    rc2 = vsg_sql_parse(sql, NULL, NULL);
    FUZZ_CHECK(rc2 == rc || rc == VSG_PARSE_NOMEM || rc2 == VSG_PARSE_NOMEM);

    (void)vsg_sql_uses_vsgpu_construct(sql);

    if (stmt) {
        FUZZ_CHECK(stmt->n_items >= 0 && stmt->n_group_by >= 0 &&
                   stmt->n_options >= 0);
        FUZZ_CHECK(stmt->input.layer != NULL);
        FUZZ_CHECK(stmt->geom_item >= -1 && stmt->geom_item < stmt->n_items);
        for (int k = 0; k < stmt->n_items; k++)
            unparse(stmt->items[k].expr);
        unparse(stmt->where);
        unparse(stmt->join_geom[0]);
        unparse(stmt->join_geom[1]);
        for (int k = 0; k < stmt->n_group_by; k++)
            unparse(stmt->group_by[k]);
        for (int k = 0; k < stmt->n_options; k++)
            FUZZ_CHECK(strchr(stmt->options[k], '=') != NULL &&
                       stmt->options[k][0] != '=');
        if (stmt->kind == VSG_STMT_CLIP_RECT)
            FUZZ_CHECK(stmt->rect[0] <= stmt->rect[2] &&
                       stmt->rect[1] <= stmt->rect[3]);
        vsg_statement_free(stmt);
    }
    free(sql);
    return 0;
}
