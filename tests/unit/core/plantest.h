/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plantest.h: what the plan's unit tests share: the GPU table (tbl,
 * loaded by up() and freed by down(), a group's set-up and tear-down), a
 * .vmx fixture with lines appended, answers from --gpu specs, and the
 * plan's settings, findings and the .vmx it writes.  Include after
 * testutil.h and plan.h. */
#ifndef GW_TEST_PLANTEST_H
#define GW_TEST_PLANTEST_H

static gw_table tbl;

static inline int
up(void **state)
{
	gw_err e;

	(void)state;
	return gw_table_load(&tbl, tu_table_path(), &e) == 0 ? 0 : -1;
}

static inline int
down(void **state)
{
	(void)state;
	gw_table_free(&tbl);
	return 0;
}

/* A fixture (source line stripped) with extra lines appended. */
static inline gw_vmx *
load(const char *rel, const char *extra)
{
	char *data, *all;
	size_t n = 0;
	gw_vmx *v = NULL;
	gw_err e;

	data = tu_read_sample(rel, &n);
	all = gw_xasprintf("%.*s%s", (int)n, data, extra ? extra : "");
	free(data);
	if (gw_vmx_parse(&v, all, strlen(all), rel, &e) != 0)
		fail_msg("%s", e.msg);
	free(all);
	return v;
}

/* The answers of the specs (each as --gpu/--vgpu takes it), NULL-ended. */
static inline void
answers(gw_answers *a, const char *const *specs)
{
	gw_err e;

	gw_answers_init(a);
	for (; specs && *specs; specs++)
		if (gw_answers_add_gpu(a, &tbl, *specs, "--gpu", &e) != 0)
			fail_msg("%s", e.msg);
}

static inline const gw_setting *
setting(const gw_plan *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++)
		if (gw_strieq(p->settings[i].key, key))
			return &p->settings[i];
	return NULL;
}

/* The value the write sets for key (NULL: none, or kept). */
static inline const char *
written(const gw_plan *p, const char *key)
{
	const gw_setting *s = setting(p, key);

	return s && !s->keep ? s->value : NULL;
}

static inline const gw_finding *
finding(const gw_plan *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++)
		if (strcmp(p->findings[i].id, id) == 0)
			return &p->findings[i];
	return NULL;
}

/* The plan applied to v, serialised; *changed: anything written. */
static inline char *
applied(const gw_plan *p, const gw_vmx *v, int *changed)
{
	char *before, *after;
	size_t blen = 0, alen = 0;
	gw_vmx *w = NULL;
	gw_err e;

	before = gw_vmx_serialize(v, &blen);
	if (gw_vmx_parse(&w, before, blen, "copy", &e) != 0 ||
	    gw_plan_apply_vmx(p, w, &e) != 0)
		fail_msg("%s", e.msg);
	after = gw_vmx_serialize(w, &alen);
	*changed = blen != alen || memcmp(before, after, blen) != 0;
	free(before);
	gw_vmx_free(w);
	return after;
}

#endif
