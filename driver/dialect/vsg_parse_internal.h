/*
 * vsg_parse_internal.h - private to driver/dialect: the token stream, the
 * parser state shared by the statement and expression parsers, and the
 * error helpers. Nothing here is part of the public interface.
 *
 * Error convention: every parsing function returns NULL (pointers) or -1
 * (ints) on failure after recording the first failure in the parser state
 * with vsg_fail()/vsg_fail_expected()/vsg_nomem(); later failures never
 * overwrite the first one, so the reported message is the root cause.
 */
#ifndef VSG_PARSE_INTERNAL_H
#define VSG_PARSE_INTERNAL_H

#include <stddef.h>

#include "vsgpu_sql.h"

/* Nesting of parentheses, unary operators, function calls and IN lists
 * that the recursive-descent expression parser accepts. */
#define VSG_MAX_NESTING 200
/* Height of any expression tree the parser returns, so that every
 * consumer (free, unparse, the driver's binder) may recurse safely. A
 * chain of 1000 ANDed conditions is 1000 high. */
#define VSG_MAX_HEIGHT 1000

typedef enum {
    TK_END,         /* end of text (always the last token)                  */
    TK_ERROR,       /* lexical error: text of the error in lex_error        */
    TK_IDENT,       /* unquoted word: identifier or keyword                 */
    TK_QIDENT,      /* "quoted identifier"                                  */
    TK_STRING,      /* 'string'                                             */
    TK_INTEGER,
    TK_REAL,
    TK_UNSUPPORTED, /* valid SQLite we do not take: `x`, [x], X'..', 0x1, ? */
    TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT, TK_SEMI, TK_STAR,
    TK_PLUS, TK_MINUS, TK_SLASH, TK_PERCENT, TK_CONCAT,
    TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE
} vsg_tok_type;

typedef struct {
    vsg_tok_type type;
    int pos;        /* byte offset of the first character                   */
    int len;        /* bytes, quotes included                               */
} vsg_token;

typedef struct {
    const char *src;
    vsg_token *toks;
    int n_toks;
    int i;                  /* current token                                */
    int nesting;            /* current recursion depth of the expr parser  */
    int in_construct;       /* >0 inside an ST_ construct: unsupported SQL
                               there is a syntax error, not NOT_VSGPU      */
    const char *lex_error;  /* message of the TK_ERROR token, if any        */
    vsg_parse_result rc;    /* first failure; VSG_PARSE_OK while none       */
    vsg_parse_error *err;   /* may be NULL                                  */
} vsg_parser;

/* ---- the token cursor ------------------------------------------------- */

/* The parser never moves past the final TK_END, so cur() is always valid. */
static inline const vsg_token *cur(const vsg_parser *p)
{
    return &p->toks[p->i];
}

static inline const vsg_token *peek(const vsg_parser *p, int k)
{
    int j = p->i + k;
    return &p->toks[j < p->n_toks ? j : p->n_toks - 1];
}

static inline void advance(vsg_parser *p)
{
    if (p->i < p->n_toks - 1)
        p->i++;
}

int vsg_tok_is(const vsg_parser *p, const vsg_token *t, const char *kw);
int vsg_tok_is_reserved(const vsg_parser *p, const vsg_token *t);

static inline int is_kw(const vsg_parser *p, const char *kw)
{
    return vsg_tok_is(p, cur(p), kw);
}

/* An identifier that may name a table, column or alias without quotes. */
static inline int at_name(const vsg_parser *p)
{
    const vsg_token *t = cur(p);
    return t->type == TK_QIDENT ||
           (t->type == TK_IDENT && !vsg_tok_is_reserved(p, t));
}

/* ---- lexer.c --------------------------------------------------------- */

/* Splits src into tokens, ending with TK_END. A lexical error becomes a
 * TK_ERROR token (message in *lex_error) followed by TK_END, so that the
 * statement is rejected only when the parser reaches it. Returns 0, or -1
 * on allocation failure (nothing allocated then). */
int vsg_lex(const char *src, vsg_token **toks, int *n_toks,
            const char **lex_error);

/* vsg_tok_is: case-insensitive comparison of an unquoted word token with
 * kw. vsg_tok_is_reserved: whether the word token is a reserved keyword
 * (never a bare identifier). Declared above. */

/* The value of an identifier, quoted identifier or string token, with the
 * quotes removed and doubled quotes undone. malloc'd; NULL on failure. */
char *vsg_tok_value(const vsg_parser *p, const vsg_token *t);

/* ---- statement.c: errors --------------------------------------------- */

/* Records a failure of class rc at byte offset pos (first one wins).
 * Always returns -1 so callers can write `return vsg_fail(...)`. */
int vsg_fail(vsg_parser *p, vsg_parse_result rc, int pos, const char *fmt,
             ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* SYNTAX_ERROR at the current token: "expected <what>, found <token>".
 * When the token is TK_ERROR, its lexical message is reported instead;
 * when it is TK_UNSUPPORTED outside an ST_ construct, NOT_VSGPU. */
int vsg_fail_expected(vsg_parser *p, const char *what);

/* NOT_VSGPU at the current token (or SYNTAX_ERROR inside a construct). */
int vsg_fail_unsupported(vsg_parser *p, const char *what);

int vsg_nomem(vsg_parser *p);

/* Writes a short printable description of token t into buf. */
void vsg_describe_token(const vsg_parser *p, const vsg_token *t, char *buf,
                        size_t size);

/* ---- expr.c ---------------------------------------------------------- */

/* Parses an expression at the current token. NULL on failure. */
vsg_expr *vsg_parse_expr(vsg_parser *p);

/* A new node of the given kind at pos, or NULL (NOMEM recorded). */
vsg_expr *vsg_expr_new(vsg_parser *p, vsg_expr_kind kind, int pos);

/* Appends arg to e->args (taking ownership of arg even on failure) and
 * updates e's height. Returns 0 or -1 (NOMEM or too high, recorded). */
int vsg_expr_add_arg(vsg_parser *p, vsg_expr *e, vsg_expr *arg);

void vsg_expr_free(vsg_expr *e);

/* Case-insensitive ASCII comparison; 0 when equal. */
int vsg_strcasecmp(const char *a, const char *b);

/* Takes the current token's value into *dst (freeing what was there) and
 * advances. 0, or -1 (NOMEM recorded). */
int vsg_take_value(vsg_parser *p, char **dst);

/* ---- tablefunc.c ----------------------------------------------------- */

/* ['dataset path' .] layer (no alias) into t. 0 or -1. */
int vsg_parse_layer(vsg_parser *p, vsg_table_ref *t);

/* ST_Intersection / ST_Clip / ST_ClipByRect (...) at the current token:
 * sets kind, input, method, rect and options. 0 or -1. */
int vsg_parse_table_function(vsg_parser *p, vsg_statement *s);

/* ---- classify.c ------------------------------------------------------ */

/* Decides the statement kind and checks the VSGPU constructs that are
 * plain expressions: the select items of a table function (n_tables 0,
 * kind already set), the ST_Intersection item and ST_Intersects condition
 * of a join (n_tables 2), the ST_Union item and GROUP BY ordinals of a
 * dissolve (n_tables 1). For a comma join (comma != 0) the ST_Intersects
 * conjunct is taken out of stmt->where; for a JOIN, on_cond is consumed
 * (always, even on failure) and its other conjuncts are ANDed into where.
 * Returns 0 or -1 (failure recorded). */
int vsg_classify(vsg_parser *p, vsg_statement *stmt, int n_tables,
                 int comma, vsg_expr *on_cond, int on_pos);

#endif /* VSG_PARSE_INTERNAL_H */
