/*
 * test_parser.c - unit tests of the VSGPU SQL dialect parser
 * (driver/dialect): every accepted statement form with the fields of the
 * resulting tree, the syntax errors with their position and message, the
 * statements handed back as NOT_VSGPU, the OGR SQL unparser, the nesting
 * bounds, and a seeded fuzz loop that asserts only "no crash, a valid
 * result" (built a second time with ASan and UBSan, it catches memory
 * errors).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsg_test.h"
#include "vsgpu_sql.h"

/* ---- helpers ---------------------------------------------------------- */

static int streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static vsg_statement *parse_ok(const char *sql)
{
    vsg_statement *s = NULL;
    vsg_parse_error err;
    vsg_parse_result rc = vsg_sql_parse(sql, &s, &err);
    if (rc != VSG_PARSE_OK) {
        fprintf(stderr, "  unexpected result %d for: %s\n  %d:%d %s\n", rc,
                sql, err.line, err.column, err.message);
        return NULL;
    }
    return s;
}

/* Checks the result class, the 1-based line and column (0: not checked)
 * and that the message contains msg. */
static int expect_fail(const char *sql, vsg_parse_result want, int line,
                       int column, const char *msg)
{
    vsg_statement *s = (vsg_statement *)1;
    vsg_parse_error err;
    vsg_parse_result rc = vsg_sql_parse(sql, &s, &err);
    int ok = rc == want && s == NULL && strstr(err.message, msg) != NULL &&
             (line == 0 || err.line == line) &&
             (column == 0 || err.column == column);
    if (!ok)
        fprintf(stderr,
                "  for: %s\n  want rc %d at %d:%d with \"%s\"\n"
                "  got  rc %d at %d:%d \"%s\"\n",
                sql, want, line, column, msg, rc, err.line, err.column,
                err.message);
    if (rc == VSG_PARSE_OK)
        vsg_statement_free(s);
    return ok;
}

#define CHECK_SYNTAX(sql, line, col, msg) \
    CHECK(expect_fail(sql, VSG_PARSE_SYNTAX_ERROR, line, col, msg))
#define CHECK_NOT_VSGPU(sql, msg) \
    CHECK(expect_fail(sql, VSG_PARSE_NOT_VSGPU, 0, 0, msg))

/* Unparses e (rename NULL) and compares with want. */
static int unparses_to(const vsg_expr *e, const char *want)
{
    char *got = vsg_expr_to_ogrsql(e, NULL, NULL);
    int ok = streq(got, want);
    if (!ok)
        fprintf(stderr, "  unparse: want %s\n           got  %s\n", want,
                got ? got : "(null)");
    free(got);
    return ok;
}

/* The WHERE of a statement, unparsed. */
static int where_is(const char *sql, const char *want)
{
    vsg_statement *s = parse_ok(sql);
    int ok = s && s->where && unparses_to(s->where, want);
    vsg_statement_free(s);
    return ok;
}

static int is_column(const vsg_expr *e, const char *qualifier,
                     const char *name)
{
    return e && e->kind == VSG_EX_COLUMN && streq(e->name, name) &&
           (qualifier ? streq(e->qualifier, qualifier) : e->qualifier == NULL);
}

static int is_call(const vsg_expr *e, const char *name, int n_args)
{
    return e && e->kind == VSG_EX_FUNCTION && streq(e->name, name) &&
           e->n_args == n_args;
}

/* ---- table functions ------------------------------------------------- */

static void test_intersection_table_function(void)
{
    vsg_statement *s = parse_ok("SELECT * FROM ST_Intersection(parcels, zones)");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_INTERSECTION);
    CHECK(s->n_items == 1 && s->items[0].expr->kind == VSG_EX_STAR &&
          s->items[0].expr->qualifier == NULL && s->items[0].alias == NULL);
    CHECK(s->geom_item == -1);
    CHECK(streq(s->input.layer, "parcels") && !s->input.dataset &&
          !s->input.alias && s->input.pos == 30);
    CHECK(streq(s->method.layer, "zones") && !s->method.dataset);
    CHECK(!s->where && s->n_group_by == 0 && s->n_options == 0);
    CHECK(!s->join_geom[0] && !s->join_geom[1]);
    vsg_statement_free(s);
}

static void test_intersection_options(void)
{
    vsg_statement *s = parse_ok(
        "SELECT * FROM ST_Intersection(parcels, zones, "
        "'PROMOTE_TO_MULTI=YES', 'INPUT_PREFIX=in_', 'METHOD_PREFIX=it''s')");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_INTERSECTION);
    REQUIRE(s->n_options == 3);
    CHECK(streq(s->options[0], "PROMOTE_TO_MULTI=YES"));
    CHECK(streq(s->options[1], "INPUT_PREFIX=in_"));
    CHECK(streq(s->options[2], "METHOD_PREFIX=it's"));
    vsg_statement_free(s);

    s = parse_ok("SELECT * FROM ST_Clip(roads, county, 'SKIP_FAILURES=YES')");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_CLIP && s->n_options == 1 &&
          streq(s->options[0], "SKIP_FAILURES=YES"));
    CHECK(streq(s->input.layer, "roads") && streq(s->method.layer, "county"));
    vsg_statement_free(s);
}

static void test_clip_by_rect(void)
{
    vsg_statement *s =
        parse_ok("SELECT * FROM ST_ClipByRect(roads, -75.3, 39.8, -74.9, 40.1)");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_CLIP_RECT);
    CHECK(streq(s->input.layer, "roads") && s->method.layer == NULL);
    CHECK(s->rect[0] == -75.3 && s->rect[1] == 39.8 && s->rect[2] == -74.9 &&
          s->rect[3] == 40.1);
    vsg_statement_free(s);

    s = parse_ok("select * from st_clipbyrect(r, 0, +1e-3, 10., .5e1, "
                 "'PROMOTE_TO_MULTI=YES')");
    REQUIRE(s);
    CHECK(s->rect[0] == 0.0 && s->rect[1] == 1e-3 && s->rect[2] == 10.0 &&
          s->rect[3] == 5.0);
    CHECK(s->n_options == 1 && streq(s->options[0], "PROMOTE_TO_MULTI=YES"));
    vsg_statement_free(s);

    s = parse_ok("SELECT * FROM ST_ClipByRect(r, 1, 2, 1, 2)"); /* degenerate */
    CHECK(s && s->rect[2] == 1.0);
    vsg_statement_free(s);
}

static void test_table_function_columns_and_where(void)
{
    vsg_statement *s = parse_ok(
        "SELECT name, zone AS z, upper(kind) k FROM ST_Intersection(a, b) "
        "WHERE zone = 'R1'");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_INTERSECTION && s->n_items == 3);
    CHECK(is_column(s->items[0].expr, NULL, "name") && !s->items[0].alias);
    CHECK(is_column(s->items[1].expr, NULL, "zone") &&
          streq(s->items[1].alias, "z"));
    CHECK(is_call(s->items[2].expr, "upper", 1) &&
          streq(s->items[2].alias, "k"));
    CHECK(s->items[1].pos == 13);
    CHECK(s->where && unparses_to(s->where, "(\"zone\" = 'R1')"));
    vsg_statement_free(s);
}

/* ---- joins -------------------------------------------------------------- */

static void test_join(void)
{
    vsg_statement *s = parse_ok(
        "SELECT a.name, b.zone, ST_Intersection(a.geom, b.geom) AS geom "
        "FROM parcels a JOIN zones b ON ST_Intersects(a.geom, b.geom) "
        "WHERE b.zone = 'R1'");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_JOIN_INTERSECTION);
    CHECK(s->n_items == 3 && s->geom_item == 2);
    CHECK(is_column(s->items[0].expr, "a", "name"));
    CHECK(is_column(s->items[1].expr, "b", "zone"));
    CHECK(is_call(s->items[2].expr, "ST_Intersection", 2) &&
          streq(s->items[2].alias, "geom"));
    CHECK(streq(s->input.layer, "parcels") && streq(s->input.alias, "a"));
    CHECK(streq(s->method.layer, "zones") && streq(s->method.alias, "b"));
    CHECK(is_column(s->join_geom[0], "a", "geom"));
    CHECK(is_column(s->join_geom[1], "b", "geom"));
    CHECK(s->where && unparses_to(s->where, "(\"zone\" = 'R1')"));
    CHECK(s->n_options == 0 && s->n_group_by == 0);
    vsg_statement_free(s);
}

static void test_join_normalises_sides(void)
{
    vsg_statement *s = parse_ok(
        "SELECT ST_Intersection(b.g2, a.g1) FROM parcels AS a INNER JOIN "
        "zones AS b ON ST_Intersects(b.g2, a.g1)");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_JOIN_INTERSECTION && s->geom_item == 0);
    CHECK(is_column(s->join_geom[0], "a", "g1"));
    CHECK(is_column(s->join_geom[1], "b", "g2"));
    CHECK(s->where == NULL);
    vsg_statement_free(s);

    /* Without aliases the layer names qualify, case-insensitively. */
    s = parse_ok("SELECT ST_Intersection(Parcels.geom, zones.geom) FROM "
                 "parcels JOIN zones ON ST_INTERSECTS(ZONES.geom, parcels.geom)");
    REQUIRE(s);
    CHECK(is_column(s->join_geom[0], "parcels", "geom"));
    CHECK(is_column(s->join_geom[1], "ZONES", "geom"));
    vsg_statement_free(s);
}

static void test_comma_join(void)
{
    vsg_statement *s = parse_ok(
        "SELECT a.*, b.*, ST_Intersection(a.geom, b.geom) FROM parcels a, "
        "zones b WHERE ST_Intersects(a.geom, b.geom) AND a.x > 3");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_JOIN_INTERSECTION && s->geom_item == 2);
    CHECK(s->items[0].expr->kind == VSG_EX_STAR &&
          streq(s->items[0].expr->qualifier, "a"));
    CHECK(s->items[1].expr->kind == VSG_EX_STAR &&
          streq(s->items[1].expr->qualifier, "b"));
    CHECK(is_column(s->join_geom[0], "a", "geom"));
    CHECK(s->where && unparses_to(s->where, "(\"x\" > 3)"));
    vsg_statement_free(s);

    /* The conjunct is removed from the middle of a chain. */
    CHECK(where_is("SELECT *, ST_Intersection(a.geom, b.geom) FROM t1 a, t2 b "
                   "WHERE a.x > 3 AND ST_Intersects(b.geom, a.geom) AND "
                   "(b.y < 2 OR b.y IS NULL)",
                   "((\"x\" > 3) AND ((\"y\" < 2) OR (\"y\" IS NULL)))"));
    s = parse_ok("SELECT *, ST_Intersection(a.geom, b.geom) FROM t1 a, t2 b "
                 "WHERE ST_Intersects(a.geom, b.geom)");
    CHECK(s && s->where == NULL && s->items[0].expr->kind == VSG_EX_STAR);
    vsg_statement_free(s);
}

static void test_join_on_extra_conjuncts_move_to_where(void)
{
    CHECK(where_is("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b ON "
                   "a.k = b.k AND ST_Intersects(a.g, b.g) WHERE b.zone = 'R1'",
                   "((\"k\" = \"k\") AND (\"zone\" = 'R1'))"));
    CHECK(where_is("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b ON "
                   "ST_Intersects(a.g, b.g) AND a.k = 1",
                   "(\"k\" = 1)"));
}

static void test_other_datasets(void)
{
    vsg_statement *s = parse_ok(
        "SELECT * FROM ST_Intersection('/data/other.gpkg'.zones, parcels)");
    REQUIRE(s);
    CHECK(streq(s->input.dataset, "/data/other.gpkg") &&
          streq(s->input.layer, "zones"));
    CHECK(s->method.dataset == NULL && streq(s->method.layer, "parcels"));
    vsg_statement_free(s);

    s = parse_ok("SELECT a.id, ST_Intersection(a.geom, r.geom) FROM parcels a "
                 "JOIN '/x/y.shp'.roads r ON ST_Intersects(a.geom, r.geom)");
    REQUIRE(s);
    CHECK(streq(s->method.dataset, "/x/y.shp") &&
          streq(s->method.layer, "roads") && streq(s->method.alias, "r"));
    vsg_statement_free(s);

    s = parse_ok("SELECT * FROM ST_Clip('it''s.gpkg'.\"my layer\", \"b\"\"q\")");
    REQUIRE(s);
    CHECK(streq(s->input.dataset, "it's.gpkg") &&
          streq(s->input.layer, "my layer"));
    CHECK(streq(s->method.layer, "b\"q"));
    vsg_statement_free(s);
}

/* ---- dissolve ---------------------------------------------------------- */

static void test_dissolve(void)
{
    vsg_statement *s =
        parse_ok("SELECT zone, ST_Union(geom) AS geom FROM parcels GROUP BY zone");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_DISSOLVE && s->geom_item == 1);
    CHECK(streq(s->input.layer, "parcels") && s->method.layer == NULL);
    CHECK(is_call(s->items[1].expr, "ST_Union", 1) &&
          is_column(s->items[1].expr->args[0], NULL, "geom"));
    CHECK(s->n_group_by == 1 && is_column(s->group_by[0], NULL, "zone"));
    CHECK(!s->join_geom[0] && !s->where);
    vsg_statement_free(s);

    s = parse_ok("SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM "
                 "counties GROUP BY 1");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_DISSOLVE && s->geom_item == 1);
    CHECK(is_call(s->items[0].expr, "substr", 3) &&
          streq(s->items[0].alias, "st"));
    CHECK(s->n_group_by == 1 && s->group_by[0]->kind == VSG_EX_INTEGER &&
          streq(s->group_by[0]->text, "1"));
    vsg_statement_free(s);

    s = parse_ok("SELECT substr(id,1,2) AS st, COUNT(*) AS n, ST_Union(geom) "
                 "FROM counties GROUP BY st");
    REQUIRE(s);
    CHECK(s->geom_item == 2 && s->n_items == 3);
    CHECK(is_call(s->items[1].expr, "COUNT", 1) &&
          s->items[1].expr->args[0]->kind == VSG_EX_STAR);
    CHECK(is_column(s->group_by[0], NULL, "st"));
    vsg_statement_free(s);

    s = parse_ok("SELECT ST_Union(geom) AS geom FROM parcels");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_DISSOLVE && s->geom_item == 0 &&
          s->n_group_by == 0 && streq(s->items[0].alias, "geom"));
    vsg_statement_free(s);

    s = parse_ok("SELECT zone, ST_Union(geom) FROM parcels WHERE area > 10 "
                 "GROUP BY zone, kind;");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_DISSOLVE && s->n_group_by == 2);
    CHECK(is_column(s->group_by[1], NULL, "kind"));
    CHECK(s->where && unparses_to(s->where, "(\"area\" > 10)"));
    vsg_statement_free(s);

    s = parse_ok("SELECT p.zone, st_union(p.geom) FROM parcels p GROUP BY p.zone");
    CHECK(s && s->kind == VSG_STMT_DISSOLVE &&
          is_column(s->group_by[0], "p", "zone"));
    vsg_statement_free(s);
}

/* ---- lexical forms ------------------------------------------------------ */

static void test_lexical_forms(void)
{
    vsg_statement *s = parse_ok(
        "-- a comment line\n  sElEcT \"my col\", \"a\"\"b\" /* block\n"
        "comment */ FROM St_InterSection(\"my layer\", zones) ; ");
    REQUIRE(s);
    CHECK(s->kind == VSG_STMT_INTERSECTION);
    CHECK(is_column(s->items[0].expr, NULL, "my col"));
    CHECK(is_column(s->items[1].expr, NULL, "a\"b"));
    CHECK(streq(s->input.layer, "my layer"));
    vsg_statement_free(s);

    s = parse_ok("SELECT * FROM ST_INTERSECTION(\"select\", \"from\")--end");
    CHECK(s && streq(s->input.layer, "select") &&
          streq(s->method.layer, "from"));
    vsg_statement_free(s);

    /* UTF-8 identifiers, and positions in bytes. */
    s = parse_ok("SELECT * FROM ST_Clip(r\xc3\xa9seau, d\xc3\xa9partement)");
    CHECK(s && streq(s->input.layer, "r\xc3\xa9seau"));
    vsg_statement_free(s);
}

/* ---- expressions ------------------------------------------------------- */

static void test_expression_literals(void)
{
    vsg_statement *s = parse_ok(
        "SELECT 42, 4.2, 1e-3, 'it''s', NULL, -7 FROM ST_Clip(a, b)");
    REQUIRE(s);
    REQUIRE(s->n_items == 6);
    CHECK(s->items[0].expr->kind == VSG_EX_INTEGER &&
          streq(s->items[0].expr->text, "42"));
    CHECK(s->items[1].expr->kind == VSG_EX_REAL &&
          streq(s->items[1].expr->text, "4.2"));
    CHECK(s->items[2].expr->kind == VSG_EX_REAL &&
          streq(s->items[2].expr->text, "1e-3"));
    CHECK(s->items[3].expr->kind == VSG_EX_STRING &&
          streq(s->items[3].expr->text, "it's"));
    CHECK(s->items[4].expr->kind == VSG_EX_NULL);
    CHECK(s->items[5].expr->kind == VSG_EX_UNARY &&
          s->items[5].expr->op == VSG_OP_NEG &&
          s->items[5].expr->args[0]->kind == VSG_EX_INTEGER);
    CHECK(s->items[5].expr->pos == 37);
    vsg_statement_free(s);
}

#define W(cond) "SELECT * FROM ST_Clip(a, b) WHERE " cond

static void test_expression_precedence(void)
{
    CHECK(where_is(W("a OR b AND c"), "(\"a\" OR (\"b\" AND \"c\"))"));
    CHECK(where_is(W("(a OR b) AND c"), "((\"a\" OR \"b\") AND \"c\")"));
    CHECK(where_is(W("NOT a = 1 AND b"), "((NOT (\"a\" = 1)) AND \"b\")"));
    CHECK(where_is(W("NOT NOT a"), "(NOT (NOT \"a\"))"));
    CHECK(where_is(W("a = 1 OR NOT b <> 2"),
                   "((\"a\" = 1) OR (NOT (\"b\" <> 2)))"));
    CHECK(where_is(W("x + 2 * 3 - 4 / 5 % 6 > 0"),
                   "(((\"x\" + (2 * 3)) - ((4 / 5) % 6)) > 0)"));
    CHECK(where_is(W("a - b - c = 0"), "(((\"a\" - \"b\") - \"c\") = 0)"));
    CHECK(where_is(W("-x * +y < - -3"),
                   "(((- \"x\") * (\"y\")) < (- (- 3)))"));
    CHECK(where_is(W("a != 1 AND b <= 2 AND c >= 3 AND d < 4 AND e == 5"),
                   "(((((\"a\" <> 1) AND (\"b\" <= 2)) AND (\"c\" >= 3)) AND "
                   "(\"d\" < 4)) AND (\"e\" = 5))"));
    CHECK(where_is(W("name || '_' || code = 'x_1'"),
                   "(CONCAT(CONCAT(\"name\", '_'), \"code\") = 'x_1')"));
    CHECK(where_is(W("a < 1 = b > 2"), "((\"a\" < 1) = (\"b\" > 2))"));
}

static void test_expression_predicates(void)
{
    CHECK(where_is(W("a IS NULL OR b IS NOT NULL"),
                   "((\"a\" IS NULL) OR (\"b\" IS NOT NULL))"));
    CHECK(where_is(W("zone IN ('R1', 'R2') AND k NOT IN (1)"),
                   "((\"zone\" IN ('R1', 'R2')) AND (\"k\" NOT IN (1)))"));
    CHECK(where_is(W("x BETWEEN 1 AND 2 AND y NOT BETWEEN -1 AND 1 + 1"),
                   "((\"x\" BETWEEN 1 AND 2) AND (\"y\" NOT BETWEEN (- 1) AND "
                   "(1 + 1)))"));
    CHECK(where_is(W("n LIKE 'A%' OR n NOT LIKE '_b' OR n ILIKE 'c%' OR n "
                     "NOT ILIKE 'd'"),
                   "((((\"n\" LIKE 'A%') OR (\"n\" NOT LIKE '_b')) OR (\"n\" "
                   "ILIKE 'c%')) OR (\"n\" NOT ILIKE 'd'))"));
    CHECK(where_is(W("substr(id, 1, 2) = '01' AND length(name) > 3"),
                   "((substr(\"id\", 1, 2) = '01') AND (length(\"name\") > 3))"));
    CHECK(where_is(W("f() = 1"), "(f() = 1)"));

    vsg_statement *s = parse_ok(W("x NOT BETWEEN 1 AND 2"));
    REQUIRE(s);
    CHECK(s->where->kind == VSG_EX_BETWEEN && s->where->negated &&
          s->where->n_args == 3);
    vsg_statement_free(s);
    s = parse_ok(W("x ILIKE 'a'"));
    REQUIRE(s);
    CHECK(s->where->kind == VSG_EX_LIKE && s->where->op == VSG_OP_ILIKE &&
          !s->where->negated);
    vsg_statement_free(s);
    s = parse_ok(W("t.x IN (1, 2, 3)"));
    REQUIRE(s);
    CHECK(s->where->kind == VSG_EX_IN && s->where->n_args == 4 &&
          is_column(s->where->args[0], "t", "x"));
    vsg_statement_free(s);
}

/* ---- unparse ------------------------------------------------------------ */

typedef struct {
    char buf[128];
    int calls;
} rename_ctx;

static const char *rename_prefix(void *ctx, const char *qualifier,
                                 const char *name)
{
    rename_ctx *r = ctx;
    r->calls++;
    if (streq(name, "secret"))
        return NULL;
    snprintf(r->buf, sizeof r->buf, "%s_%s", qualifier ? qualifier : "",
             name);
    return r->buf;
}

static void test_unparse(void)
{
    vsg_statement *s;
    char *out;
    rename_ctx r = {"", 0};

    /* Quotes in strings and identifiers, spelled for OGR SQL. */
    CHECK(where_is(W("\"it\"\"s\" = 'it''s'"), "(\"it\\\"s\" = 'it''s')"));
    CHECK(where_is(W("n = 'a\\''b'"), "(\"n\" = 'a\\\\'b')"));
    CHECK(where_is(W("n = 'C:\\dir'"), "(\"n\" = 'C:\\dir')"));
    CHECK(where_is(W("x > .5 AND x < 5. AND y = 1E+3"),
                   "(((\"x\" > 0.5) AND (\"x\" < 5.0)) AND (\"y\" = 1E+3))"));
    CHECK(where_is(W("COUNT(*) > 1"), "(COUNT(*) > 1)"));

    /* A trailing backslash cannot be spelled in OGR SQL. */
    s = parse_ok(W("n = 'C:\\'"));
    REQUIRE(s);
    CHECK(vsg_expr_to_ogrsql(s->where, NULL, NULL) == NULL);
    vsg_statement_free(s);

    /* rename sees (qualifier, name); NULL from it fails the unparse. */
    s = parse_ok("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b ON "
                 "ST_Intersects(a.g, b.g) WHERE a.zone = 'R1' AND b.k IS NULL");
    REQUIRE(s);
    out = vsg_expr_to_ogrsql(s->where, rename_prefix, &r);
    CHECK(streq(out, "((\"a_zone\" = 'R1') AND (\"b_k\" IS NULL))"));
    CHECK(r.calls == 2);
    free(out);
    vsg_statement_free(s);
    s = parse_ok(W("x = 1 OR secret = 2"));
    REQUIRE(s);
    CHECK(vsg_expr_to_ogrsql(s->where, rename_prefix, &r) == NULL);
    vsg_statement_free(s);

    CHECK(vsg_expr_to_ogrsql(NULL, NULL, NULL) == NULL);
}

/* ---- syntax errors ------------------------------------------------------ */

static void test_syntax_errors(void)
{
    CHECK_SYNTAX(NULL, 1, 1, "empty statement");
    CHECK_SYNTAX("", 1, 1, "empty statement");
    CHECK_SYNTAX("  -- nothing\n ; ", 2, 4, "empty statement");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x = 'abc", 1, 39,
                 "unterminated string literal");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(\"a, b)", 1, 23,
                 "unterminated quoted identifier");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) /* x", 1, 29,
                 "unterminated comment");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x = #3", 1, 39,
                 "unexpected character");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x = 1e", 1, 39,
                 "malformed number");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE (x = 1", 1, 41,
                 "expected ')', found end of statement");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x = 1)", 1, 40,
                 "expected end of statement, found ')'");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) garbage", 1, 29,
                 "a table function takes no alias");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x = 1 2", 1, 41,
                 "expected end of statement, found '2'");
    CHECK_SYNTAX("SELECT *", 1, 9, "expected ',' or FROM after the select "
                                   "list, found end of statement");
    CHECK_SYNTAX("SELECT a b c FROM t", 1, 12, "found 'c'");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b); SELECT 1", 1, 30,
                 "expected end of statement after ';'");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE", 1, 34,
                 "expected an expression, found end of statement");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x = ", 1, 39,
                 "expected an expression");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE a.* = 1", 1, 37,
                 "'*' is only allowed");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x NOT 3", 1, 41,
                 "expected IN, BETWEEN, LIKE or ILIKE after NOT");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x BETWEEN 1 OR 2", 1, 47,
                 "expected AND in BETWEEN");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x IN 1", 1, 40,
                 "expected '(' after IN");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) WHERE x IN (1,", 1, 43,
                 "expected an expression");
    CHECK_SYNTAX("SELECT f(1 2) FROM ST_Clip(a, b)", 1, 12,
                 "expected ',' or ')' in the arguments of a function");
    CHECK_SYNTAX("SELECT x AS FROM ST_Clip(a, b)", 1, 13,
                 "expected an alias after AS, found 'FROM'");
    CHECK_SYNTAX("SELECT * FROM\n  ST_Clip(a, b)\n WHERE x = 'a' AND\n", 4, 1,
                 "expected an expression, found end of statement");
    CHECK_SYNTAX("(SELECT * FROM t)", 1, 1, "expected SELECT, found '('");
    CHECK_SYNTAX("SELECT * FROM t JOIN u ON ST_Intersects(t.g, u.g) WHERE "
                 "x = 'oops", 1, 61, "unterminated string literal");
}

static void test_syntax_errors_in_constructs(void)
{
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, -75.3, 39.8, -74.9)", 1,
                 54, "expected ',' and 4 numbers (xmin, ymin, xmax, ymax) "
                     "after the layer of ST_ClipByRect, found ')'");
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, 1, 2, 3, 4, 5)", 1, 48,
                 "expected an option string 'KEY=VALUE' in the arguments of "
                 "ST_ClipByRect, found '5'");
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, 1, 2, 3, 4 'A=B')", 1, 47,
                 "expected ')' after the arguments of ST_ClipByRect, found "
                 "'A=B'");
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, 1, y, 3, 4)", 1, 39,
                 "expected a number (ymin) in ST_ClipByRect, found 'y'");
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, 1, '2', 3, 4)", 1, 39,
                 "expected a number (ymin)");
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, 5, 0, 1, 1)", 1, 42,
                 "xmin is greater than xmax");
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, 0, 0, 1, 1e999)", 1, 45,
                 "ymax of ST_ClipByRect is out of range");
    CHECK_SYNTAX("SELECT * FROM ST_ClipByRect(roads, 0, 0, 1, 0x10)", 1, 45,
                 "expected a number (ymax) in ST_ClipByRect, found '0x10'");
    CHECK_SYNTAX("SELECT * FROM ST_Intersection(a)", 1, 32,
                 "expected ',' and the method layer after the input layer of "
                 "ST_Intersection, found ')'");
    CHECK_SYNTAX("SELECT * FROM ST_Intersection(a, b, 'PROMOTE_TO_MULTI')", 1,
                 37, "expected an option string 'KEY=VALUE', found "
                     "'PROMOTE_TO_MULTI'");
    CHECK_SYNTAX("SELECT * FROM ST_Intersection(a, b, '=YES')", 1, 37,
                 "expected an option string 'KEY=VALUE'");
    CHECK_SYNTAX("SELECT * FROM ST_Intersection(a, b, c)", 1, 37,
                 "expected an option string 'KEY=VALUE' in the arguments of "
                 "ST_Intersection, found 'c'");
    CHECK_SYNTAX("SELECT * FROM ST_Intersection(a.geom, b)", 1, 32,
                 "found '.'");
    CHECK_SYNTAX("SELECT * FROM ST_Intersection('x.gpkg', b)", 1, 31,
                 "a string as a layer name");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(''.a, b)", 1, 23, "empty dataset path");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(\"\", b)", 1, 23, "empty layer name");
    CHECK_SYNTAX("SELECT * FROM ST_Clip('d'.select, b)", 1, 27,
                 "expected a layer name after the dataset path");
    CHECK_SYNTAX("SELECT * FROM ST_Clip(a, b) AS t", 1, 29,
                 "a table function takes no alias");

    CHECK_SYNTAX("SELECT ST_Union() FROM parcels", 1, 8,
                 "ST_Union needs a geometry column, found no argument");
    CHECK_SYNTAX("SELECT ST_Union(*) FROM parcels", 1, 17,
                 "ST_Union needs a geometry column, found '*'");
    CHECK_SYNTAX("SELECT ST_Union(q.geom) FROM parcels p", 1, 17,
                 "expected a column of 'p' in ST_Union, found 'q.geom'");
    CHECK_SYNTAX("SELECT zone, ST_Union(geom) FROM parcels GROUP BY 0", 1, 51,
                 "GROUP BY position 0 is out of range: the select list has 2 "
                 "items");
    CHECK_SYNTAX("SELECT zone, ST_Union(geom) FROM parcels GROUP BY "
                 "99999999999999999999",
                 1, 51, "out of range");
    CHECK_SYNTAX("SELECT zone, ST_Union(geom) FROM parcels GROUP BY zone, 2",
                 1, 57, "refers to the ST_Union aggregate");

    CHECK_SYNTAX("SELECT ST_Intersection(a.geom, c.geom) FROM parcels a JOIN "
                 "zones b ON ST_Intersects(a.geom, b.geom)",
                 1, 32, "expected a column qualified by 'a' or 'b' in "
                        "ST_Intersection, found 'c.geom'");
    CHECK_SYNTAX("SELECT ST_Intersection(a.geom, geom) FROM parcels a JOIN "
                 "zones b ON ST_Intersects(a.geom, b.geom)",
                 1, 32, "found 'geom'");
    CHECK_SYNTAX("SELECT ST_Intersection(a.geom, a.geom) FROM parcels a JOIN "
                 "zones b ON ST_Intersects(a.geom, b.geom)",
                 1, 32, "one geometry column of each table");
    CHECK_SYNTAX("SELECT ST_Intersection(a.geom) FROM parcels a JOIN zones b "
                 "ON ST_Intersects(a.geom, b.geom)",
                 1, 8, "found 1 argument");
    CHECK_SYNTAX("SELECT ST_Intersection(a.geom, b.geom) FROM parcels a JOIN "
                 "zones b ON ST_Intersects(a.geom, parcels.geom)",
                 1, 93, "found 'parcels.geom'");
    CHECK_SYNTAX("SELECT ST_Intersection(a.geom, b.geom) FROM parcels a, "
                 "zones b WHERE ST_Intersects(a.geom, b.geom, 1)",
                 1, 70, "ST_Intersects of a join takes two geometry columns");
}

static void test_too_deep(void)
{
    const size_t n = 1 << 20;
    char *sql = malloc(n + 64);
    size_t o;
    REQUIRE(sql);

    /* 1 MB of '(' */
    o = (size_t)sprintf(sql, "SELECT * FROM ST_Clip(a, b) WHERE ");
    memset(sql + o, '(', n);
    sql[o + n] = '\0';
    CHECK_SYNTAX(sql, 1, 0, "expression nested too deeply");

    /* Unary chains and NOT chains recurse too. */
    o = (size_t)sprintf(sql, "SELECT * FROM ST_Clip(a, b) WHERE ");
    for (size_t k = 0; k < 5000; k++) {
        sql[o++] = '-';
        sql[o++] = ' ';
    }
    strcpy(sql + o, "1 = 1");
    CHECK_SYNTAX(sql, 1, 0, "expression nested too deeply");
    o = (size_t)sprintf(sql, "SELECT * FROM ST_Clip(a, b) WHERE ");
    for (size_t k = 0; k < 5000; k++)
        o += (size_t)sprintf(sql + o, "NOT ");
    strcpy(sql + o, "x");
    CHECK_SYNTAX(sql, 1, 0, "expression nested too deeply");

    /* A flat chain grows the tree, not the recursion: bounded by height. */
    o = (size_t)sprintf(sql, "SELECT * FROM ST_Clip(a, b) WHERE x = 0");
    for (size_t k = 0; k < 20000; k++)
        o += (size_t)sprintf(sql + o, " OR x = %zu", k);
    CHECK_SYNTAX(sql, 1, 0, "expression nested too deeply");

    /* ... but what real statements need passes: 150 parentheses, a chain of
     * 500 ORs, an IN list of 10000 values. */
    {
        vsg_statement *s;
        o = (size_t)sprintf(sql, "SELECT * FROM ST_Clip(a, b) WHERE ");
        for (size_t k = 0; k < 150; k++)
            sql[o++] = '(';
        sql[o++] = 'x';
        for (size_t k = 0; k < 150; k++)
            sql[o++] = ')';
        sql[o] = '\0';
        s = parse_ok(sql);
        CHECK(s && is_column(s->where, NULL, "x"));
        vsg_statement_free(s);

        o = (size_t)sprintf(sql, "SELECT * FROM ST_Clip(a, b) WHERE x = 0");
        for (size_t k = 0; k < 500; k++)
            o += (size_t)sprintf(sql + o, " OR x = %zu", k);
        s = parse_ok(sql);
        CHECK(s != NULL);
        if (s) {
            char *w = vsg_expr_to_ogrsql(s->where, NULL, NULL);
            CHECK(w && strncmp(w, "((((", 4) == 0);
            free(w);
        }
        vsg_statement_free(s);

        o = (size_t)sprintf(sql, "SELECT * FROM ST_Clip(a, b) WHERE x IN (0");
        for (size_t k = 0; k < 10000; k++)
            o += (size_t)sprintf(sql + o, ", %zu", k);
        strcpy(sql + o, ")");
        s = parse_ok(sql);
        CHECK(s && s->where->kind == VSG_EX_IN && s->where->n_args == 10002);
        vsg_statement_free(s);
    }
    free(sql);
}

/* ---- NOT_VSGPU ---------------------------------------------------------- */

static void test_not_vsgpu(void)
{
    CHECK_NOT_VSGPU("DELETE FROM t WHERE x = 'unterminated",
                    "only SELECT statements are handled by the VSGPU dialect, "
                    "found 'DELETE'");
    CHECK_NOT_VSGPU("UPDATE t SET x = 1", "found 'UPDATE'");
    CHECK_NOT_VSGPU("CREATE TABLE t (x)", "found 'CREATE'");
    CHECK_NOT_VSGPU("PRAGMA table_info(t)", "found 'PRAGMA'");
    CHECK_NOT_VSGPU("WITH x AS (SELECT 1) SELECT * FROM x", "found 'WITH'");
    CHECK_NOT_VSGPU("SELECT count(*) FROM t",
                    "no ST_Intersection, ST_Clip, ST_ClipByRect or ST_Union");
    CHECK_NOT_VSGPU("SELECT * FROM parcels WHERE zone = 'R1'",
                    "no ST_Intersection");
    CHECK_NOT_VSGPU("SELECT ST_Area(ST_Union(geom)) FROM parcels",
                    "no ST_Intersection");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(geom, ST_GeomFromText('POINT(0 "
                    "0)')) FROM parcels", "no ST_Intersection");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Intersection(a, b) ORDER BY x",
                    "ORDER BY is not supported by the VSGPU dialect");
    CHECK_NOT_VSGPU("SELECT zone, ST_Union(geom) FROM p GROUP BY zone LIMIT 3",
                    "LIMIT is not supported");
    CHECK_NOT_VSGPU("SELECT zone, ST_Union(geom) FROM p GROUP BY zone HAVING "
                    "count(*) > 1", "HAVING is not supported");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) UNION SELECT * FROM c",
                    "UNION is not supported");
    CHECK_NOT_VSGPU("SELECT DISTINCT zone FROM p", "SELECT DISTINCT");
    CHECK_NOT_VSGPU("SELECT * FROM (SELECT * FROM p)", "a subquery");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x IN (SELECT y FROM c)",
                    "a subquery");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE EXISTS (SELECT 1)",
                    "'EXISTS' is not supported");
    CHECK_NOT_VSGPU("SELECT CASE WHEN x THEN 1 END FROM ST_Clip(a, b)",
                    "'CASE' is not supported");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a LEFT JOIN z b "
                    "ON ST_Intersects(a.g, b.g)", "LEFT JOIN is not supported");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b ON "
                    "ST_Intersects(a.g, b.g) JOIN c ON 1", "more than two tables");
    CHECK_NOT_VSGPU("SELECT * FROM a, b, c", "more than two tables");
    CHECK_NOT_VSGPU("SELECT ST_Union(a.g) FROM p a JOIN z b ON "
                    "ST_Intersects(a.g, b.g)", "ST_Union with a join");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b ON "
                    "ST_Intersects(a.g, b.g) OR a.x = 1",
                    "ST_Intersects combined with OR or NOT");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a, z b WHERE NOT "
                    "ST_Intersects(a.g, b.g)", "combined with OR or NOT");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b ON "
                    "a.id = b.id", "join condition without ST_Intersects");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a, z b WHERE "
                    "a.x = 1", "without ST_Intersects(a.geom, b.geom) in WHERE");
    CHECK_NOT_VSGPU("SELECT a.x FROM p a JOIN z b ON ST_Intersects(a.g, b.g)",
                    "a join without ST_Intersection");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g), ST_Intersection(b.g, "
                    "a.g) FROM p a JOIN z b ON ST_Intersects(a.g, b.g)",
                    "more than one ST_Intersection");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b ON "
                    "ST_Intersects(ST_Buffer(a.g, 1), b.g)",
                    "expressions other than geometry columns");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.h, b.g) FROM p a JOIN z b ON "
                    "ST_Intersects(a.g, b.g)", "different geometry columns");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b",
                    "a JOIN without ON");
    CHECK_NOT_VSGPU("SELECT ST_Intersection(a.g, b.g) FROM p a JOIN z b "
                    "USING (id)", "JOIN ... USING");
    CHECK_NOT_VSGPU("SELECT ST_Union(ST_Buffer(geom, 1)) FROM p",
                    "ST_Union of an expression");
    CHECK_NOT_VSGPU("SELECT ST_Union(g1, g2) FROM p", "not the aggregate");
    CHECK_NOT_VSGPU("SELECT ST_Union(g), ST_Union(h) FROM p",
                    "more than one ST_Union");
    CHECK_NOT_VSGPU("SELECT ST_Union(geom) FROM ST_Clip(a, b)",
                    "ST_Union of the result of a table function");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) GROUP BY x",
                    "GROUP BY on the result of a table function");
    CHECK_NOT_VSGPU("SELECT * FROM json_each('[1]')",
                    "the table-valued function 'json_each' is not supported");
    CHECK_NOT_VSGPU("SELECT * FROM main.parcels", "schema-qualified");
    CHECK_NOT_VSGPU("SELECT * FROM 'parcels'", "a string as a layer name");
    CHECK_NOT_VSGPU("SELECT `x` FROM ST_Clip(a, b)", "'`x`' is not supported");
    CHECK_NOT_VSGPU("SELECT [x] FROM ST_Clip(a, b)", "'[x]' is not supported");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x & 1",
                    "'&' is not supported");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x = ?",
                    "'?' is not supported");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x = X'00'",
                    "'X'00'' is not supported");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x GLOB 'a*'",
                    "'GLOB' is not supported");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x LIKE 'a!%' ESCAPE '!'",
                    "LIKE ... ESCAPE");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x IS 3",
                    "IS other than IS [NOT] NULL");
    CHECK_NOT_VSGPU("SELECT * FROM ST_Clip(a, b) WHERE x NOT NULL",
                    "use IS NOT NULL");
    CHECK_NOT_VSGPU("SELECT count(DISTINCT x) FROM p", "DISTINCT in a function");
    CHECK_NOT_VSGPU("SELECT a.b.c FROM p", "three-part column name");
    CHECK_NOT_VSGPU("SELECT row_number() OVER (ORDER BY x) FROM p",
                    "a window function");
    CHECK_NOT_VSGPU("SELECT 1 UNION SELECT 2", "UNION is not supported");
    CHECK_NOT_VSGPU("SELECT 1 LIMIT 1", "LIMIT is not supported");
}

/* ---- the DIALECT=VSGPU signature ------------------------------------------ */

static void test_vsgpu_construct_signature(void)
{
    /* Written for VSGPU, valid or not. */
    CHECK(vsg_sql_uses_vsgpu_construct(
        "SELECT * FROM ST_Intersection(counties, states)"));
    CHECK(vsg_sql_uses_vsgpu_construct(
        "select * from st_clip (a b)"));
    CHECK(vsg_sql_uses_vsgpu_construct(
        "SELECT * FROM ST_ClipByRect(a, 1, 2, 3"));
    CHECK(vsg_sql_uses_vsgpu_construct(
        "SELECT substr(id, 1, 2) AS st, ST_Union(geom) AS geom FROM counties "
        "GROUP BY st ORDER BY"));
    /* Ordinary SQL, or the names where they are not the construct. */
    CHECK(!vsg_sql_uses_vsgpu_construct(NULL));
    CHECK(!vsg_sql_uses_vsgpu_construct(""));
    CHECK(!vsg_sql_uses_vsgpu_construct("SELECT COUNT(*) FROM counties"));
    CHECK(!vsg_sql_uses_vsgpu_construct(
        "SELECT ST_Union(geom) FROM counties WHERE id < '10'"));
    CHECK(!vsg_sql_uses_vsgpu_construct(
        "SELECT ST_Intersection(a.geom, b.geom) FROM a JOIN b ON x"));
    CHECK(!vsg_sql_uses_vsgpu_construct(
        "SELECT 'FROM ST_Clip(a, b)' FROM t"));
    CHECK(!vsg_sql_uses_vsgpu_construct(
        "SELECT * FROM \"ST_Clip\"(a, b)"));
    CHECK(!vsg_sql_uses_vsgpu_construct(
        "SELECT * FROM t -- FROM ST_Clip(a, b)"));
    CHECK(!vsg_sql_uses_vsgpu_construct("SELECT * FROM ST_Clip"));
    CHECK(!vsg_sql_uses_vsgpu_construct("\"unterminated FROM ST_Clip("));
}

/* ---- API edges ----------------------------------------------------------- */

static void test_api_edges(void)
{
    vsg_statement *s = NULL;

    /* err and out may be NULL. */
    CHECK(vsg_sql_parse("SELECT * FROM ST_Clip(a, b)", &s, NULL) ==
          VSG_PARSE_OK);
    vsg_statement_free(s);
    CHECK(vsg_sql_parse("SELECT * FROM ST_Clip(a, b)", NULL, NULL) ==
          VSG_PARSE_OK);
    CHECK(vsg_sql_parse("SELECT", NULL, NULL) == VSG_PARSE_SYNTAX_ERROR);
    vsg_statement_free(NULL);

    /* The message quotes a long or binary token shortened and printable. */
    {
        vsg_parse_error err;
        CHECK(vsg_sql_parse("SELECT * FROM ST_Clip(a, b) WHERE x = 1 "
                            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
                            &s, &err) == VSG_PARSE_SYNTAX_ERROR);
        CHECK(strstr(err.message, "'abcdefghijklmnopqrstuvwxyzabcdefghijklmn...'"));
        CHECK(err.pos == 40 && err.line == 1 && err.column == 41);
        CHECK(vsg_sql_parse("SELECT * FROM ST_Clip(a, b) \x01", &s, &err) ==
              VSG_PARSE_SYNTAX_ERROR);
        CHECK(strstr(err.message, "unexpected character") && err.pos == 28);
    }
}

/* ---- fuzz --------------------------------------------------------------- */

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64*: deterministic, seeded, good enough to shuffle bytes */
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static const char *const valid_statements[] = {
    "SELECT * FROM ST_Intersection(parcels, zones, 'PROMOTE_TO_MULTI=YES', "
    "'INPUT_PREFIX=in_')",
    "SELECT * FROM ST_ClipByRect(roads, -75.3, 39.8, -74.9, 40.1)",
    "SELECT name, zone FROM ST_Intersection('/d/o.gpkg'.a, \"b\") WHERE zone "
    "= 'R1' AND NOT x BETWEEN 1 AND 2 OR y IN (1, 2.5, 'x') -- c",
    "SELECT a.name, b.zone, ST_Intersection(a.geom, b.geom) AS geom FROM "
    "parcels a JOIN zones b ON ST_Intersects(a.geom, b.geom) WHERE b.zone = "
    "'R1'",
    "SELECT a.*, b.*, ST_Intersection(a.geom,b.geom) FROM parcels a, zones b "
    "WHERE a.x > 3 AND ST_Intersects(a.geom, b.geom) AND b.n LIKE 'x%'",
    "SELECT substr(id,1,2) AS st, COUNT(*) AS n, ST_Union(geom) FROM counties "
    "WHERE -x * (y + 1) / 2 % 3 >= 0 AND s || 't' IS NOT NULL GROUP BY st, 1;",
    "/* c */ select zone, st_union(geom) from parcels where area > 1e-3 group "
    "by zone, kind",
};

static void check_result(const char *sql, size_t len)
{
    vsg_statement *s = NULL;
    vsg_parse_error err;
    vsg_parse_result rc = vsg_sql_parse(sql, &s, &err);

    CHECK(rc == VSG_PARSE_OK || rc == VSG_PARSE_NOT_VSGPU ||
          rc == VSG_PARSE_SYNTAX_ERROR);
    if (rc == VSG_PARSE_OK) {
        CHECK(s != NULL);
        if (!s)
            return;
        CHECK(s->kind >= VSG_STMT_INTERSECTION && s->kind <= VSG_STMT_DISSOLVE);
        CHECK(s->n_items > 0 && s->geom_item >= -1 &&
              s->geom_item < s->n_items && s->input.layer != NULL);
        if (s->where)
            free(vsg_expr_to_ogrsql(s->where, NULL, NULL));
        for (int k = 0; k < s->n_items; k++)
            free(vsg_expr_to_ogrsql(s->items[k].expr, NULL, NULL));
        vsg_statement_free(s);
    } else {
        CHECK(s == NULL);
        CHECK(err.message[0] != '\0' && err.line >= 1 && err.column >= 1 &&
              err.pos >= 0 && (size_t)err.pos <= len);
    }
}

static void test_fuzz(void)
{
    static const char *const vocabulary[] = {
        "SELECT ", "FROM ", "WHERE ", "GROUP BY ", "JOIN ", "ON ", "AS ",
        "AND ", "OR ", "NOT ", "IN ", "IS ", "NULL ", "BETWEEN ", "LIKE ",
        "ST_Intersection", "ST_Clip", "ST_ClipByRect", "ST_Union",
        "ST_Intersects", "(", ")", ",", ".", "*", "-", "+", "/", "%", "||",
        "=", "<>", "<=", "'x=1'", "'", "\"", "\"q\"", "a", "b", "geom",
        "1", "2.5e-3", ";", "--", "/*", "*/", "\n", " ", "count", "x", "`",
    };
    const int n_vocab = (int)(sizeof vocabulary / sizeof vocabulary[0]);
    const int n_valid = (int)(sizeof valid_statements / sizeof valid_statements[0]);
    uint64_t state = 0x5eed5eed12345678ULL;
    char buf[1024];
    int before = vsg_test_failures;

    /* The valid statements parse... */
    for (int v = 0; v < n_valid; v++) {
        vsg_statement *s = parse_ok(valid_statements[v]);
        CHECK(s != NULL);
        vsg_statement_free(s);
    }
    /* ...and every prefix of them, and mutations, give a valid result. */
    for (int v = 0; v < n_valid; v++) {
        size_t len = strlen(valid_statements[v]);
        for (size_t cut = 0; cut <= len; cut++) {
            memcpy(buf, valid_statements[v], cut);
            buf[cut] = '\0';
            check_result(buf, cut);
        }
        for (int m = 0; m < 600; m++) {
            size_t n = len;
            memcpy(buf, valid_statements[v], len + 1);
            for (int edits = 1 + (int)(next_random(&state) % 4); edits > 0;
                 edits--) {
                size_t at = n ? (size_t)(next_random(&state) % n) : 0;
                unsigned char c = (unsigned char)(1 + next_random(&state) % 255);
                switch (next_random(&state) % 3) {
                case 0: /* replace */
                    if (n)
                        buf[at] = (char)c;
                    break;
                case 1: /* insert */
                    if (n + 2 < sizeof buf) {
                        memmove(buf + at + 1, buf + at, n - at + 1);
                        buf[at] = (char)c;
                        n++;
                    }
                    break;
                default: /* delete */
                    if (n) {
                        memmove(buf + at, buf + at + 1, n - at);
                        n--;
                    }
                }
            }
            check_result(buf, n);
        }
    }
    /* Random bytes. */
    for (int r = 0; r < 3000; r++) {
        size_t n = (size_t)(next_random(&state) % 200);
        for (size_t k = 0; k < n; k++)
            buf[k] = (char)(1 + next_random(&state) % 255);
        buf[n] = '\0';
        check_result(buf, n);
    }
    /* Random token soup, mostly starting with SELECT to get deep. */
    for (int r = 0; r < 20000; r++) {
        size_t n = 0;
        int n_tokens = 1 + (int)(next_random(&state) % 40);
        if (next_random(&state) % 8 != 0)
            n += (size_t)sprintf(buf, "SELECT ");
        for (int k = 0; k < n_tokens; k++) {
            const char *t = vocabulary[next_random(&state) % (uint64_t)n_vocab];
            size_t tl = strlen(t);
            if (n + tl + 1 >= sizeof buf)
                break;
            memcpy(buf + n, t, tl);
            n += tl;
        }
        buf[n] = '\0';
        check_result(buf, n);
    }
    CHECK(vsg_test_failures == before);
}

int main(void)
{
    RUN(test_intersection_table_function);
    RUN(test_intersection_options);
    RUN(test_clip_by_rect);
    RUN(test_table_function_columns_and_where);
    RUN(test_join);
    RUN(test_join_normalises_sides);
    RUN(test_comma_join);
    RUN(test_join_on_extra_conjuncts_move_to_where);
    RUN(test_other_datasets);
    RUN(test_dissolve);
    RUN(test_lexical_forms);
    RUN(test_expression_literals);
    RUN(test_expression_precedence);
    RUN(test_expression_predicates);
    RUN(test_unparse);
    RUN(test_syntax_errors);
    RUN(test_syntax_errors_in_constructs);
    RUN(test_too_deep);
    RUN(test_not_vsgpu);
    RUN(test_api_edges);
    RUN(test_vsgpu_construct_signature);
    RUN(test_fuzz);
    return TEST_SUMMARY();
}
