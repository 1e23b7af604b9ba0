/*
 * vsgpu_sql.h - the VSGPU SQL dialect: a hand-written parser from untrusted
 * statement text to a statement tree (the "plan" before binding).
 *
 * The parser is pure C11, knows nothing of GDAL, and never crashes on any
 * input: every allocation is checked, recursion depth is bounded, and every
 * failure is reported through vsg_parse_result plus vsg_parse_error.
 *
 * Binding (layer and field resolution, type checks) happens in driver/,
 * which knows the datasets. The grammar is documented in docs/dialect.md.
 */
#ifndef VSGPU_SQL_H
#define VSGPU_SQL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Expression tree, used for select items, WHERE, GROUP BY and the
 * arguments of ST_ functions. */
typedef enum {
    VSG_EX_COLUMN,   /* [qualifier.]name; qualifier may be NULL            */
    VSG_EX_STAR,     /* * or qualifier.*                                   */
    VSG_EX_STRING,   /* 'text' (text holds the unescaped value)            */
    VSG_EX_INTEGER,  /* 42 (text holds the digits as written)              */
    VSG_EX_REAL,     /* 4.2, 1e-3 (text as written)                        */
    VSG_EX_NULL,     /* NULL                                               */
    VSG_EX_UNARY,    /* op in {VSG_OP_NOT, VSG_OP_NEG, VSG_OP_PLUS}; args[0] */
    VSG_EX_BINARY,   /* op: logical, comparison, arithmetic; args[0..1]    */
    VSG_EX_IS_NULL,  /* args[0] IS [NOT] NULL (negated)                    */
    VSG_EX_IN,       /* args[0] [NOT] IN (args[1..])                       */
    VSG_EX_BETWEEN,  /* args[0] [NOT] BETWEEN args[1] AND args[2]          */
    VSG_EX_LIKE,     /* args[0] [NOT] LIKE args[1]; op VSG_OP_LIKE or ILIKE */
    VSG_EX_FUNCTION  /* name(args...); name as written; COUNT(*) has a STAR arg */
} vsg_expr_kind;

typedef enum {
    VSG_OP_NONE = 0,
    VSG_OP_OR, VSG_OP_AND, VSG_OP_NOT,
    VSG_OP_EQ, VSG_OP_NE, VSG_OP_LT, VSG_OP_LE, VSG_OP_GT, VSG_OP_GE,
    VSG_OP_ADD, VSG_OP_SUB, VSG_OP_MUL, VSG_OP_DIV, VSG_OP_MOD, VSG_OP_CONCAT,
    VSG_OP_NEG, VSG_OP_PLUS,
    VSG_OP_LIKE, VSG_OP_ILIKE
} vsg_op_code;

typedef struct vsg_expr {
    vsg_expr_kind kind;
    vsg_op_code op;
    int negated;             /* NOT IN, NOT LIKE, NOT BETWEEN, IS NOT NULL  */
    char *qualifier;         /* COLUMN/STAR: table alias or layer, or NULL  */
    char *name;              /* COLUMN: field name; FUNCTION: function name */
    char *text;              /* literals                                    */
    struct vsg_expr **args;
    int n_args;
    int pos;                 /* byte offset of the expression in the text   */
} vsg_expr;

typedef enum {
    VSG_STMT_INTERSECTION,      /* SELECT ... FROM ST_Intersection(a, b [, 'K=V' ...]) */
    VSG_STMT_CLIP,              /* SELECT ... FROM ST_Clip(a, b [, 'K=V' ...])          */
    VSG_STMT_CLIP_RECT,         /* SELECT ... FROM ST_ClipByRect(a, x0, y0, x1, y1 [, 'K=V' ...]) */
    VSG_STMT_JOIN_INTERSECTION, /* SELECT ..., ST_Intersection(a.g, b.g) FROM a JOIN b ON ST_Intersects(a.g, b.g) */
    VSG_STMT_DISSOLVE           /* SELECT keys..., ST_Union(g) FROM a [WHERE] [GROUP BY] */
} vsg_stmt_kind;

/* A layer named in FROM: [ 'dataset path' . ] layer [ [AS] alias ]. */
typedef struct {
    char *dataset;           /* NULL: the dataset that received ExecuteSQL  */
    char *layer;
    char *alias;             /* NULL when none was given                    */
    int pos;
} vsg_table_ref;

typedef struct {
    vsg_expr *expr;
    char *alias;             /* NULL when none was given                    */
    int pos;
} vsg_select_item;

typedef struct {
    vsg_stmt_kind kind;

    vsg_select_item *items;  /* the select list, in order                   */
    int n_items;
    int geom_item;           /* index into items of the ST_Intersection /
                                ST_Union item (JOIN, DISSOLVE); -1 otherwise */

    vsg_table_ref input;     /* the input layer ("a")                        */
    vsg_table_ref method;    /* the method layer ("b"); unset for CLIP_RECT
                                and DISSOLVE (layer == NULL)                 */
    double rect[4];          /* CLIP_RECT: xmin, ymin, xmax, ymax            */

    /* JOIN: the column arguments of ST_Intersection(...) and of the
     * ST_Intersects(...) join condition, normalised so that [0] refers to
     * the input and [1] to the method layer. */
    vsg_expr *join_geom[2];

    vsg_expr *where;         /* WHERE without the ST_Intersects conjunct of
                                a comma join; NULL when absent               */
    vsg_expr **group_by;     /* as written: columns, aliases, ordinals (INTEGER
                                literals), or expressions                   */
    int n_group_by;

    char **options;          /* "KEY=VALUE" strings, from trailing string
                                arguments of the table functions             */
    int n_options;
} vsg_statement;

typedef enum {
    VSG_PARSE_OK = 0,
    VSG_PARSE_NOT_VSGPU,     /* well-formed SELECT, but none of the VSGPU
                                forms: the caller may hand it to SQLite      */
    VSG_PARSE_SYNTAX_ERROR,  /* err says where and what was expected         */
    VSG_PARSE_NOMEM
} vsg_parse_result;

typedef struct {
    int pos;                 /* byte offset, 0-based                         */
    int line, column;        /* 1-based                                      */
    char message[512];       /* e.g. "expected ')' after the arguments of
                                ST_ClipByRect, found ','"                    */
} vsg_parse_error;

/* Parses one statement (an optional trailing ';' is allowed).
 * On VSG_PARSE_OK *out holds a tree owned by the caller (vsg_statement_free).
 * On any other result *out is NULL; err is filled for SYNTAX_ERROR and,
 * with the reason, for NOT_VSGPU. err may be NULL. out may be NULL (the
 * text is only checked). sql NULL reads as the empty statement.
 * Guarantees on an OK tree: every expression tree is at most 1000 levels
 * high (consumers may recurse); join_geom[0..1] are owned by the statement
 * and shared with nothing (not with items); a JOIN ... ON condition's
 * conjuncts other than ST_Intersects are ANDed in front of where.
 * Reentrant: no global state. */
vsg_parse_result vsg_sql_parse(const char *sql, vsg_statement **out,
                               vsg_parse_error *err);

void vsg_statement_free(vsg_statement *stmt);

/* Whether sql, valid or not, calls a construct only the VSGPU dialect has:
 * ST_Intersection, ST_Clip or ST_ClipByRect as a table function (right
 * after FROM), or ST_Union(...) in a statement with GROUP BY. Read from the
 * tokens only (strings, quoted identifiers and comments do not count);
 * tokens after a lexical error are not seen. 0 for NULL and on allocation
 * failure. The DIALECT=VSGPU route uses it to decide whether a syntax
 * error is reported or the text goes to the wrapped dataset. */
int vsg_sql_uses_vsgpu_construct(const char *sql);

/* Renames a column while unparsing: return the name to emit (not owned by
 * the unparser) or NULL to fail the unparse. */
typedef const char *(*vsg_column_rename_fn)(void *ctx, const char *qualifier,
                                            const char *name);

/* Writes expr as an OGR SQL WHERE expression (identifiers double-quoted,
 * strings single-quoted with quotes doubled). rename may be NULL (columns
 * are emitted by name, without qualifier). Returns a malloc'd string, or
 * NULL on failure (out of memory, or rename returned NULL, or a string or
 * identifier ending in a backslash, which OGR SQL cannot spell).
 * Spelled for GDAL's OGR SQL (checked against 3.6): a quote inside an
 * identifier is written \" (OGR SQL does not read ""), a || b is written
 * CONCAT(a, b), unary + is dropped, ILIKE stays ILIKE (OGR SQL LIKE is
 * case-sensitive since GDAL 3.1, ILIKE is not). Note that OGR SQL treats a
 * comparison with NULL as false, not unknown: NOT (x > 1) is true for a
 * NULL x there. See docs/dialect.md. */
char *vsg_expr_to_ogrsql(const vsg_expr *expr, vsg_column_rename_fn rename,
                         void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* VSGPU_SQL_H */
