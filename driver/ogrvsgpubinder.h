/*
 * ogrvsgpubinder.h - internal to the binder (ogrvsgpubinder.cpp: layers,
 * columns, WHERE; ogrvsgpuselect.cpp: the select list of each form).
 */
#ifndef OGRVSGPUBINDER_H_INCLUDED
#define OGRVSGPUBINDER_H_INCLUDED

#include "ogr_vsgpu.h"

#include <map>

namespace vsgpu
{

/* A column reference resolved to one side of the statement. */
struct ColumnRef
{
    int side = 0;   /* 0 input, 1 method                         */
    int field = -1; /* field index, or -1 for the special FID    */
};

/* A field of the output schema before the select list picks from it. */
struct Candidate
{
    std::string name;
    OutField src;
};

class Binder
{
  public:
    Binder(GDALDataset *ds, const char *ds_name, const vsg_statement *stmt,
           Plan *plan, std::string *reason)
        : m_ds(ds), m_ds_name(ds_name), m_stmt(stmt), m_plan(plan),
          m_reason(reason)
    {
    }

    BindResult Run(CSLConstList open_options);

    /* ---- used by the select-list binders (ogrvsgpuselect.cpp) ---- */
    BindResult NotVSGPU(const std::string &why)
    {
        *m_reason = why;
        return BindResult::NotVSGPU;
    }
    Source &Side(int side)
    {
        return side == 0 ? m_plan->input : m_plan->method;
    }
    int Sides() const
    {
        return m_plan->method.layer ? 2 : 1;
    }
    /* Which side a qualifier names (alias or layer name), -1 if none. */
    int SideOfQualifier(const char *qualifier);
    bool StarSide(const vsg_expr *e, int *side);
    /* Resolves a column; CE_Failure and false when unknown/ambiguous. */
    bool ResolveColumn(const char *qualifier, const char *name,
                       ColumnRef *out);
    /* The geometry argument of an ST_ function on side `side`. */
    bool ResolveGeometry(const vsg_expr *e, int side, int *geom_field);
    /* The output fields of a table function, before the select list. */
    std::vector<Candidate> TableFunctionFields();
    /* Field naming of OGRLayer::Intersection for one side. */
    std::string SideFieldName(int side, int field) const;
    /* A dissolve key from an expression; NotVSGPU when not a key form. */
    BindResult ResolveKey(const vsg_expr *e, GroupKey *key,
                          std::string *name);

    BindResult BindTableFunction();
    BindResult BindJoin();
    BindResult BindDissolve();

    bool AddOutputField(const std::string &name, const OutField &src,
                        const OGRFieldDefn *model, OGRFieldType type);

    static std::string ExprText(const vsg_expr *e);

  private:
    GDALDataset *m_ds;
    std::string m_ds_name;
    const vsg_statement *m_stmt;
    Plan *m_plan;
    std::string *m_reason;
    std::map<std::string, GDALDataset *> m_opened;
    /* table functions: output field names -> source, for WHERE */
    std::vector<Candidate> m_where_names;

    bool ResolveTable(const vsg_table_ref &ref, Source *src);
    BindResult BindWhere();
    bool CollectSides(const vsg_expr *e, std::set<int> *sides);
    bool ApplyWhere(int side, const std::vector<const vsg_expr *> &conj);

    friend const char *RenameColumn(void *ctx, const char *qualifier,
                                    const char *name);
};

}  // namespace vsgpu

#endif /* OGRVSGPUBINDER_H_INCLUDED */
