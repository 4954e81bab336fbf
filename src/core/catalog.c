/* SPDX-License-Identifier: GPL-3.0-or-later */
/* catalog.c: a message catalogue is checked before gettext may use it
 * (doc/design.md, section 2.4).  A translated format string with other
 * conversions than its original (%n, a %s for a %d, one more %s) turns a
 * printf of the program into a crash or a write through a stray pointer,
 * so each .mo of the domain in the folder bindtextdomain is given that
 * gettext may open for the language in use is read, before that language
 * is used (the GNU MO format: a magic number, a count and two tables of (length,
 * offset) pairs, every one bounds-checked) and its translations compared
 * with their originals: the same arguments, in the same order (or with
 * the same %n$ positions), of the same types.  The .mo keeps no c-format
 * flag, so every entry is compared: an original without a conversion must
 * have a translation without one.  One entry that differs and the whole
 * catalogue is refused: the program speaks English, with one warning.
 * Also the translations of string literals kept while a command runs
 * (gw_gettext_lit, gw.h's _()).
 */
#include "gw.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MO_MAGIC 0x950412deU
#define MO_MAX_SIZE (64u << 20)
#define FMT_MAX_ARGS 32

/* ---- printf conversions ---------------------------------------------- */

/* An argument's type: the conversion's class and its length modifier. */
enum { T_INT = 1, T_UINT, T_DOUBLE, T_CHAR, T_STR, T_PTR };
enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_BIGL };

typedef struct {
	int n;                       /* arguments taken */
	int type[FMT_MAX_ARGS];      /* 0: not taken (a hole) */
} fmt_args;

/* Argument idx takes type; the types past a->n are cleared as n grows. */
static int
fmt_set(fmt_args *a, int idx, int type)
{
	if (idx < 0 || idx >= FMT_MAX_ARGS)
		return -1;
	if (idx >= a->n) {
		memset(&a->type[a->n], 0, (size_t)(idx + 1 - a->n) * sizeof a->type[0]);
		a->n = idx + 1;
	}
	if (a->type[idx] != 0 && a->type[idx] != type)
		return -1;
	a->type[idx] = type;
	return 0;
}

/* A printf flag character (glibc's: - + space # 0 ' I). */
static int
fmt_flag(char c)
{
	switch (c) {
	case '-': case '+': case ' ': case '#': case '0': case '\'': case 'I':
		return 1;
	}
	return 0;
}

/* A %n$ or *n$ position at *pp (1-based), 0 when there is none. */
static int
fmt_pos(const char **pp)
{
	const char *p = *pp;
	int v = 0;

	if (*p < '1' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9' && v < 1000)
		v = v * 10 + (*p++ - '0');
	if (*p != '$')
		return 0;
	*pp = p + 1;
	return v;
}

/* Past a length modifier at p, *len set. */
static const char *
fmt_length(const char *p, int *len)
{
	switch (*p) {
	case 'h': *len = p[1] == 'h' ? (p++, L_HH) : L_H; return p + 1;
	case 'l': *len = p[1] == 'l' ? (p++, L_LL) : L_L; return p + 1;
	case 'q': *len = L_LL; return p + 1;
	case 'L': *len = L_BIGL; return p + 1;
	case 'j': *len = L_J; return p + 1;
	case 'z': case 'Z': *len = L_Z; return p + 1;
	case 't': *len = L_T; return p + 1;
	}
	*len = L_NONE;
	return p;
}

/* The class of conversion c (its argument's type), *len adjusted; -1 for
 * %m (no argument), 0 for one that cannot be checked (%n, unknown). */
static int
fmt_class(char c, int *len)
{
	switch (c) {
	case 'd': case 'i': return T_INT;
	case 'o': case 'u': case 'x': case 'X': return T_UINT;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
	case 'a': case 'A': return T_DOUBLE;
	case 'c': return T_CHAR;
	case 'C': *len = L_L; return T_CHAR;
	case 's': return T_STR;
	case 'S': *len = L_L; return T_STR;
	case 'p': return T_PTR;
	case 'm': return -1;
	}
	return 0;
}

/* A width or precision at p: digits, or * (an int argument, at *n$ when
 * numbered); past it, or NULL when it cannot be checked. */
static const char *
fmt_star(const char *p, fmt_args *a, int numbered, int *seq)
{
	int wpos;

	if (*p != '*') {
		while (*p >= '0' && *p <= '9')
			p++;
		return p;
	}
	p++;
	wpos = fmt_pos(&p);
	if ((numbered == 1) != (wpos > 0) ||
	    fmt_set(a, numbered ? wpos - 1 : (*seq)++, T_INT) != 0)
		return NULL;
	return p;
}

/* The arguments that s takes as a printf format (glibc's conversions);
 * -1 when it is not one that can be checked: an unknown conversion, %n,
 * numbered and unnumbered arguments mixed, a hole among the numbered, one
 * argument given two types, more than FMT_MAX_ARGS. */
static int
fmt_parse(const char *s, fmt_args *a)
{
	int seq = 0, numbered = -1;   /* -1 unknown yet, 0 no, 1 yes */

	a->n = 0;
	for (const char *p = s; (p = strchr(p, '%')) != NULL; p++) {
		int pos, len, cls;

		if (*++p == '%')
			continue;
		pos = fmt_pos(&p);
		if (numbered == -1)
			numbered = pos > 0;
		else if (numbered != (pos > 0))
			return -1;
		while (fmt_flag(*p))
			p++;
		if ((p = fmt_star(p, a, numbered, &seq)) == NULL ||
		    (*p == '.' && (p = fmt_star(p + 1, a, numbered, &seq)) == NULL))
			return -1;
		p = fmt_length(p, &len);
		if ((cls = fmt_class(*p, &len)) < 0)
			continue;             /* %m: strerror(errno), no argument */
		if (cls == 0)
			return -1;            /* %n, unknown, the end */
		if (fmt_set(a, numbered ? pos - 1 : seq++, cls * 16 + len) != 0)
			return -1;
	}
	for (int i = 0; i < a->n; i++)
		if (a->type[i] == 0)
			return -1;
	return 0;
}

/* Whether the translation tr may stand for the original id: the same
 * arguments, or (a plural form, which may leave the count out) the first
 * of them. */
static int
fmt_compatible(const char *id, const char *tr, int plural)
{
	fmt_args ai, at;

	if (fmt_parse(id, &ai) != 0) {
		/* not a format the program could print with: the translation
		 * takes no argument either */
		if (strchr(tr, '%') == NULL)
			return 1;
		return fmt_parse(tr, &at) == 0 && at.n == 0;
	}
	if (fmt_parse(tr, &at) != 0)
		return 0;
	if (plural ? at.n > ai.n : at.n != ai.n)
		return 0;
	for (int i = 0; i < at.n; i++)
		if (at.type[i] != ai.type[i])
			return 0;
	return 1;
}

/* ---- the MO file ------------------------------------------------------ */

typedef struct {
	const unsigned char *d;
	size_t size;
	int swap;
} mo_file;

static int
mo_u32(const mo_file *m, uint64_t off, uint32_t *v)
{
	uint32_t x;

	if (off > m->size || m->size - off < 4)
		return -1;
	memcpy(&x, m->d + off, 4);
	*v = m->swap ? __builtin_bswap32(x) : x;
	return 0;
}

/* The string of table entry i (len bytes then a NUL inside the file). */
static int
mo_str(const mo_file *m, uint32_t table, uint32_t i, const char **s, uint32_t *len)
{
	uint32_t off;

	if (mo_u32(m, (uint64_t)table + (uint64_t)i * 8, len) != 0 ||
	    mo_u32(m, (uint64_t)table + (uint64_t)i * 8 + 4, &off) != 0)
		return -1;
	if ((uint64_t)off + *len >= m->size || m->d[(uint64_t)off + *len] != '\0')
		return -1;
	*s = (const char *)m->d + off;
	return 0;
}

/* 0 when every translation of the .mo in m fits its original; else -1
 * with *bad the first original that does not (NULL: the file is not a
 * catalogue that can be read). */
static int
mo_check(const mo_file *m, const char **bad)
{
	uint32_t magic, rev, n, otab, ttab, i;

	*bad = NULL;
	if (mo_u32(m, 0, &magic) != 0)
		return -1;
	if (magic != MO_MAGIC) {
		if (__builtin_bswap32(magic) != MO_MAGIC)
			return -1;
		((mo_file *)m)->swap = 1;
	}
	if (mo_u32(m, 4, &rev) != 0 || mo_u32(m, 8, &n) != 0 ||
	    mo_u32(m, 12, &otab) != 0 || mo_u32(m, 16, &ttab) != 0)
		return -1;
	/* revision 0, or 1 without system-dependent strings (<PRIu64>...),
	 * which this reader does not expand */
	if (rev >> 16 > 1)
		return -1;
	if (rev >> 16 == 1) {
		uint32_t nsys;

		if (mo_u32(m, 36, &nsys) != 0 || nsys != 0)
			return -1;
	}
	for (i = 0; i < n; i++) {
		const char *id, *tr, *plural, *form;
		uint32_t idlen, trlen;

		if (mo_str(m, otab, i, &id, &idlen) != 0 ||
		    mo_str(m, ttab, i, &tr, &trlen) != 0)
			return -1;
		if (idlen == 0)
			continue;               /* the header */
		/* no conversion on either side (every plural form within the
		 * lengths): nothing to compare */
		if (memchr(id, '%', idlen) == NULL && memchr(tr, '%', trlen) == NULL)
			continue;
		/* msgid NUL msgid_plural; msgstr[0] NUL msgstr[1] ... */
		plural = strlen(id) < idlen ? id + strlen(id) + 1 : NULL;
		for (form = tr; form <= tr + trlen; form += strlen(form) + 1) {
			if (!fmt_compatible(plural ? plural : id, form, plural != NULL) &&
			    (plural == NULL || !fmt_compatible(id, form, 1))) {
				*bad = id;
				return -1;
			}
		}
	}
	return 0;
}

/* The .mo at path: 0 when it may be used (or is missing); else -1 with
 * *why saying why (malloc'ed).  A catalogue that passed is not read again
 * (the start, the answers file's language and the screen's each ask). */
static int
catalog_file_check(const char *path, char **why)
{
	static char *passed[8];
	static size_t npassed;
	mo_file m = { 0 };
	const char *bad;
	void *map = NULL;
	struct stat st;
	int fd = -1, rc = -1;

	*why = NULL;
	for (size_t i = 0; i < npassed; i++)
		if (strcmp(passed[i], path) == 0)
			return 0;
	switch (gw_path_trust(path, GW_PATH_FILE, why)) {
	case 0:
		return 0;
	case 1:
		/* mapped, not copied: start-up reads it on every run */
		if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 ||
		    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
		    st.st_size > MO_MAX_SIZE || st.st_size == 0 ||
		    (map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
		                fd, 0)) == MAP_FAILED) {
			*why = gw_xasprintf(_("%s is not a message catalogue"), path);
			map = NULL;
			break;
		}
		m.d = map;
		m.size = (size_t)st.st_size;
		if (mo_check(&m, &bad) == 0) {
			rc = 0;
			if (npassed < sizeof passed / sizeof *passed)
				passed[npassed++] = gw_xstrdup(path);
		} else if (bad == NULL)
			/* TRANSLATORS: %s the catalogue's path. */
			*why = gw_xasprintf(_("%s is not a message catalogue"), path);
		else
			/* TRANSLATORS: %s an original message (a printf
			 * format). */
			*why = gw_xasprintf(_("the translation of \"%s\" takes other arguments"),
			                    bad);
		break;
	}
	if (map != NULL)
		munmap(map, m.size);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* ---- the catalogues gettext may open ----------------------------------- */

/* glibc's gettext (intl/dcigettext.c, intl/finddomain.c) looks for a
 * message in the catalogues of each name of the language list: LANGUAGE
 * (colon-separated) unless the locale of the messages is C, else that
 * locale's name; a name C or POSIX ends the list.  A name is first
 * replaced by its alias of locale.alias (intl/localealias.c; glibc reads
 * LOCALE_ALIAS_PATH, /usr/share/locale on GNU/Linux), then tried as
 * LANGUAGE[_TERRITORY][.CODESET][@MODIFIER] and every shorter form: each
 * catalogue gettext may open for a name lies in a folder whose language
 * (the name up to its first '_', '.' or '@') is the name's, or its
 * alias's. */
#define LOCALE_ALIAS_FILE "/usr/share/locale/locale.alias"
#define MAX_LANGS 16

typedef struct {
	char lang[MAX_LANGS][32];
	int n;
	int all;                  /* a language too long to keep: every folder */
} lang_set;

/* The language part of the n bytes of name at most: up to its first '_',
 * '.' or '@'. */
static size_t
lang_len(const char *name, size_t n)
{
	size_t l = strcspn(name, "_.@");

	return l < n ? l : n;
}

/* Is the language of len bytes at name kept in ls? */
static int
lang_in(const lang_set *ls, const char *name, size_t len)
{
	for (int i = 0; i < ls->n; i++)
		if (strlen(ls->lang[i]) == len && memcmp(ls->lang[i], name, len) == 0)
			return 1;
	return 0;
}

static void
lang_add(lang_set *ls, const char *name, size_t len)
{
	if (len == 0)
		return;
	if (len >= sizeof ls->lang[0] || ls->n == MAX_LANGS) {
		ls->all = 1;
		return;
	}
	if (lang_in(ls, name, len))
		return;
	memcpy(ls->lang[ls->n], name, len);
	ls->lang[ls->n++][len] = '\0';
}

/* The languages of the aliases of names (n of them, each len[i] bytes)
 * in locale.alias: "ALIAS VALUE" lines, '#' comments, the alias compared
 * without case (glibc's read_alias_file). */
static void
lang_add_aliases(lang_set *ls, const char *const *names, const size_t *len, int n)
{
	FILE *f = fopen(LOCALE_ALIAS_FILE, "re");
	char line[512];

	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		char *a = line + strspn(line, " \t"), *v;
		size_t alen;

		if (*a == '#' || *a == '\n' || *a == '\0')
			continue;
		alen = strcspn(a, " \t\n");
		v = a + alen + strspn(a + alen, " \t");
		for (int i = 0; i < n; i++)
			if (len[i] == alen && strncasecmp(a, names[i], alen) == 0)
				lang_add(ls, v, lang_len(v, strcspn(v, " \t\n")));
	}
	fclose(f);
}

/* The languages of the names in list (colon-separated, up to a C or
 * POSIX), and of their aliases. */
static void
lang_set_of(lang_set *ls, const char *list)
{
	const char *names[MAX_LANGS];
	size_t len[MAX_LANGS];
	int n = 0;

	memset(ls, 0, sizeof *ls);
	for (const char *p = list; *p && n < MAX_LANGS; ) {
		size_t l = strcspn(p, ":");

		if ((l == 1 && *p == 'C') || (l == 5 && strncmp(p, "POSIX", 5) == 0))
			break;
		if (l > 0) {
			names[n] = p;
			len[n++] = l;
			lang_add(ls, p, lang_len(p, l));
		}
		p += l;
		if (*p == ':')
			p++;
	}
	if (n > 0)
		lang_add_aliases(ls, names, len, n);
}

static int
lang_set_has(const lang_set *ls, const char *folder)
{
	return ls->all || lang_in(ls, folder, lang_len(folder, strlen(folder)));
}

/* Every catalogue of domain in dir that gettext may open for the names
 * in the list lang (gw.h). */
int
gw_catalog_check_lang(const char *dir, const char *domain, const char *lang,
                      char **what, char **why)
{
	lang_set ls;
	DIR *d;
	struct dirent *ent;
	int rc = 0;

	*what = *why = NULL;
	lang_set_of(&ls, lang);
	if (ls.n == 0 && !ls.all)
		return 0;
	if ((d = opendir(dir)) == NULL)
		return 0;
	while (rc == 0 && (ent = readdir(d)) != NULL) {
		char *mo;

		if (ent->d_name[0] == '.' || !lang_set_has(&ls, ent->d_name))
			continue;
		mo = gw_xasprintf("%s/%s/LC_MESSAGES/%s.mo", dir, ent->d_name, domain);
		if ((rc = catalog_file_check(mo, why)) != 0)
			/* TRANSLATORS: %s a path; what "ignoring" refers to. */
			*what = gw_xasprintf(_("the message catalogue %s, messages in English"), mo);
		free(mo);
	}
	closedir(d);
	return rc;
}

/* The language list gettext reads for the messages now. */
static const char *
messages_list(void)
{
	const char *loc = setlocale(LC_MESSAGES, NULL), *l;

	if (loc == NULL || strcmp(loc, "C") == 0 || strcmp(loc, "POSIX") == 0)
		return "";
	l = getenv("LANGUAGE");
	return l != NULL && *l ? l : loc;
}

int
gw_catalog_check(const char *dir, const char *domain)
{
	char *what, *why;
	int rc = gw_catalog_check_lang(dir, domain, messages_list(), &what,
	                               &why);

	if (rc != 0) {
		gw_path_warn(what, why);
		free(what);
		free(why);
	}
	return rc;
}

/* ---- translations kept (gw.h: _) --------------------------------------- */

#if defined(ENABLE_NLS) && ENABLE_NLS
/* GNU gettext (glibc, libintl): bumped when the catalogues gettext uses
 * change (setlocale, textdomain, bindtextdomain, a catalogue loaded, a
 * language switch that changes LANGUAGE: ui_use_language) */
extern int _nl_msg_cat_cntr;

/* msgid (a literal: its address is for the life of the program) to its
 * translation; open addressing, a few probes, else not kept */
#define TR_SLOTS 1024u
#define TR_PROBES 8u
static struct tr_slot {
	const char *msgid;
	char *text;
} tr_slots[TR_SLOTS];
static int tr_on, tr_cntr;

void
gw_gettext_cache(int on)
{
	tr_on = on;
	tr_cntr = _nl_msg_cat_cntr;
	memset(tr_slots, 0, sizeof tr_slots);
}

char *
gw_gettext_lit(const char *msgid)
{
	uint64_t h = (uint64_t)(uintptr_t)msgid * 0x9e3779b97f4a7c15ULL;
	unsigned i;
	char *text;

	if (!tr_on)
		return gettext(msgid);
	if (tr_cntr != _nl_msg_cat_cntr)
		gw_gettext_cache(1);
	for (i = 0; i < TR_PROBES; i++) {
		struct tr_slot *t = &tr_slots[(unsigned)((h >> 40) + i) % TR_SLOTS];

		if (t->msgid == msgid)
			return t->text;
		if (t->msgid != NULL)
			continue;
		text = gettext(msgid);
		/* a catalogue loaded by this lookup: the slots start again */
		if (tr_cntr != _nl_msg_cat_cntr)
			return text;
		t->msgid = msgid;
		t->text = text;
		return text;
	}
	return gettext(msgid);
}
#else
void
gw_gettext_cache(int on)
{
	(void)on;
}
#endif
