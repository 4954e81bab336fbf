/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gw.h: common definitions shared by every part of libgpuwiz.
 *
 * Conventions (read before adding code):
 *  - Functions that can fail return 0 on success and -1 on failure, and
 *    fill a gw_err with ONE translated line naming the file or field and
 *    what was expected.  They never print and never exit.
 *  - Every user-facing string goes through _() (or N_() in static tables,
 *    translated with _() when used).  Source names (KB numbers, document
 *    titles) are not translated.  A text whose words depend on a count
 *    goes through P_(singular, plural, n) (ngettext), never "GPU(s)".
 *  - Returned strings are malloc'ed and owned by the caller unless the
 *    comment says otherwise.
 */
#ifndef GW_H
#define GW_H

/* config.h first: it turns on the system extensions (wcwidth, ...) that
 * later system headers must see. */
#ifdef HAVE_CONFIG_H
# include <config.h>
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#if defined(ENABLE_NLS) && ENABLE_NLS
# include <libintl.h>
# if defined(__GNUC__)
/* A string literal's translation is looked up once while the cache is on
 * (gw_gettext_cache; catalog.c): the same as gettext(s), at the cost of a
 * hash probe.  Anything else (a table's N_() string, a variable) goes to
 * gettext each time. */
char *gw_gettext_lit(const char *msgid) __attribute__((format_arg(1)));
#  define _(s) (__builtin_constant_p(s) ? gw_gettext_lit(s) : gettext(s))
# else
#  define _(s) gettext(s)
# endif
# define P_(s, p, n) ngettext(s, p, n)
#else
# define _(s) (s)
# define P_(s, p, n) ((n) == 1 ? (s) : (p))
#endif
#define N_(s) (s)
/* on: the translations of string literals are kept (gw_gettext_lit) until
 * gettext's catalogue counter moves (setlocale, textdomain, a language
 * switch: _nl_msg_cat_cntr) or off; the command line turns it on once
 * the locale is set (gw_cli_main) and off when it returns. */
void gw_gettext_cache(int on);

#if defined(__GNUC__)
# define GW_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
# define GW_PRINTF(a, b)
#endif

typedef struct gw_err {
	char msg[1024];
	char ui[768];   /* the same in the wizard's words, or "" */
} gw_err;

/* Set the error text (printf style); clears ui.  Safe with e == NULL.
 * The text is escaped as textesc.h says (outside bytes never reach the
 * terminal raw) and, cut off, ends on a whole character. */
void gw_err_set(gw_err *e, const char *fmt, ...) GW_PRINTF(2, 3);
/* After gw_err_set: the same error as the wizard says it, where msg names
 * command-line flags (doc/design.md, section 9: advice in the wizard's
 * words).  The wizard shows gw_err_text(e, 1). */
void gw_err_set_ui(gw_err *e, const char *fmt, ...) GW_PRINTF(2, 3);
/* ui when wizard and ui is set, else msg. */
const char *gw_err_text(const gw_err *e, int wizard);

/* How much gpuwiz says on standard error besides its errors (the
 * command line's -q and -v): GW_QUIET no warnings, notes, progress or
 * confirmations; GW_VERBOSE also each command run on a host and each
 * SOAP call (gw_trace).  GW_NORMAL until set. */
enum { GW_QUIET = -1, GW_NORMAL = 0, GW_VERBOSE = 1 };
void gw_verbosity_set(int v);
int gw_verbosity(void);
/* One line of -v on standard error, "gpuwiz: " and the text (escaped as
 * textesc.h says); printed whatever the verbosity: the caller decides
 * (the vSphere module by its gw_vs_opts.verbose). */
void gw_trace(const char *fmt, ...) GW_PRINTF(1, 2);

/* The length (1..4) of the printable character at s (n bytes there):
 * well-formed UTF-8 (RFC 3629: no overlong form, no surrogate, nothing
 * above U+10FFFF) and not a control (C0, DEL, C1, gw_bidi_control); 0
 * otherwise. */
size_t gw_utf8_char(const char *s, size_t n);
/* Is cp a bidirectional control (U+061C, U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069)?  Shown raw, one reorders the text around it
 * (a name that reads as another): outside text never shows one raw. */
int gw_bidi_control(unsigned long cp);

/* What the program loads (doc/design.md, section 2.4).  A path is
 * trusted when it (and, for a file, the folder holding it) is owned by
 * the caller or root and writable by neither group nor others. */
typedef enum { GW_PATH_FILE, GW_PATH_DIR } gw_path_kind;
/* 1: trusted; 0: missing (and, for a file, its folder is trusted, so that
 * the error of its use may name it); -1: refused, *why malloc'ed saying
 * why (a file of another kind counts as refused). */
int gw_path_trust(const char *path, gw_path_kind kind, char **why);
/* One line on stderr, "gpuwiz: warning: ignoring WHAT (WHY)", once. */
void gw_path_warn(const char *what, const char *why);
char *gw_path_warning(const char *what, const char *why);
/* The path in the environment variable name (secure_getenv: none in a
 * setuid or setcap program), or NULL: unset, empty, or refused by
 * gw_path_trust (with one warning). */
const char *gw_env_path(const char *name, gw_path_kind kind);
/* The marker make writes beside the program it builds. */
#define GW_BUILD_MARKER "gpuwiz.build-tree"
/* PROGDIR/rel when the program runs in its build tree (PROGDIR holds
 * the GW_BUILD_MARKER that make writes, a regular file owned by the
 * caller and trusted) and gw_path_trust accepts rel there (a refusal
 * warned once), malloc'ed; else NULL: a copy of the program elsewhere, or
 * the installed one, loads only installed files.  An uninstalled build
 * finds its data beside it, so that no build-tree path is compiled into
 * the program. */
char *gw_build_path(const char *rel, gw_path_kind kind);
/* The message catalogues: a build tree's tests/locale, else the
 * installed LOCALEDIR. */
const char *gw_locale_dir(void);
/* 0 when the catalogues of domain in dir that gettext may open for the
 * messages' language now (the locale of the messages and LANGUAGE) may
 * be used (or there are none, or the locale is C); -1, with one warning,
 * when one of them is not trusted (gw_path_trust) or translates a printf
 * format with other arguments than its original's (catalog.c). */
int gw_catalog_check(const char *dir, const char *domain);
/* The same for the language list lang (LANGUAGE's form) before it is put
 * in use: -1 with *what and *why (malloc'ed) instead of a warning. */
int gw_catalog_check_lang(const char *dir, const char *domain, const char *lang,
                          char **what, char **why);

/* Allocation helpers: abort with a message on out-of-memory. */
void *gw_xmalloc(size_t n);
void *gw_xcalloc(size_t n, size_t sz);
void *gw_xrealloc(void *p, size_t n);
char *gw_xstrdup(const char *s);            /* NULL -> NULL */
char *gw_xstrndup(const char *s, size_t n);
char *gw_xasprintf(const char *fmt, ...) GW_PRINTF(1, 2);
/* Free n strings and the array that holds them (NULL: nothing). */
void gw_strs_free(char **v, size_t n);

/* Growable byte buffer. */
typedef struct gw_buf {
	char *data;     /* always NUL-terminated when len > 0 or after init */
	size_t len;
	size_t cap;
} gw_buf;
void gw_buf_init(gw_buf *b);
void gw_buf_add(gw_buf *b, const char *s, size_t n);
void gw_buf_puts(gw_buf *b, const char *s);
void gw_buf_printf(gw_buf *b, const char *fmt, ...) GW_PRINTF(2, 3);
char *gw_buf_steal(gw_buf *b);   /* returns data (never NULL), resets b */
void gw_buf_free(gw_buf *b);

/* Open path for reading, without blocking on a FIFO, and refuse anything
 * but a regular file (a directory, a FIFO, a socket, a device) with one
 * line naming the file and what it is: the fd (blocking again), or -1
 * with e set.  Every reader of a file the user names goes through it. */
int gw_open_regular(const char *path, gw_err *e);

/* Read a whole regular file.  Errors name the file: missing, unreadable,
 * not a regular file (gw_open_regular), larger than max_bytes.  *out is
 * NUL-terminated (extra byte not counted in *len). */
int gw_read_file(const char *path, size_t max_bytes, char **out, size_t *len,
                 gw_err *e);
/* The same from fd (a regular file open for reading, at its start; left
 * open), name in the messages. */
int gw_read_fd(int fd, const char *name, size_t max_bytes, char **out,
               size_t *len, gw_err *e);

/* Read fd to its end in chunks of 64 KiB, each handed to take(ctx, ...)
 * as it comes: 0, or -1 with e set naming name (unreadable, more than
 * max_bytes in all: nothing after the limit is handed on). */
int gw_read_stream(int fd, const char *name, size_t max_bytes,
                   void (*take)(void *ctx, const char *data, size_t len),
                   void *ctx, gw_err *e);

/* The lines of input that comes in chunks, '\n' cut off: a line whole in
 * its chunk is handed to fn where it lies, one cut by a chunk's end once
 * joined in part (a gw_buf_init'ed buffer that holds only that).  Each
 * chunk through gw_lines_feed, then gw_lines_end: the last line when the
 * input does not end with '\n', and part freed. */
typedef void gw_line_fn(void *ctx, const char *s, size_t n);
void gw_lines_feed(gw_buf *part, const char *data, size_t len,
                   gw_line_fn *fn, void *ctx);
void gw_lines_end(gw_buf *part, gw_line_fn *fn, void *ctx);

/* gw_read_file, and a NUL byte refused too, naming what the text should
 * be the output of ("lspci -nnvv"). */
int gw_read_text_file(const char *path, size_t max_bytes, const char *what,
                      char **out, size_t *len, gw_err *e);

/* write(2) all of data to fd, retrying on EINTR and short writes. */
int gw_write_all(int fd, const char *data, size_t len);

/* Write data to path atomically: temp file in the same directory, fsync,
 * rename over, fsync the directory.  Mode of an existing file is kept. */
int gw_write_file_atomic(const char *path, const char *data, size_t len,
                         gw_err *e);

/* Case-insensitive ASCII compare helpers.  gw_str_icontains: needle
 * occurs in hay (0 for a NULL hay or an empty needle). */
int gw_strieq(const char *a, const char *b);
int gw_str_icontains(const char *hay, const char *needle);

/* Parse a strictly decimal non-negative integer (no sign, no spaces, no
 * trailing junk) not greater than max.  Returns 0 on success. */
int gw_parse_uint(const char *s, unsigned long long max, unsigned long long *out);

/* Width of a string in terminal cells (wcwidth, current locale; a CJK
 * character is 2 cells).  Bytes that do not decode count one cell each. */
int gw_text_cells(const char *s);

/* The next line of text s in at most room cells, measured without the
 * locale (a CJK, Hangul or full-width character is 2 cells, anything else
 * 1), so that a file is wrapped the same whatever LC_CTYPE says: the
 * bytes of the line.  A line breaks at a space (*skip = 1: the space
 * after it), or between two characters one of which is CJK (Chinese has
 * no spaces; *skip = 0), never inside a run of Latin letters, digits and
 * '_' ("VMWARE_PASSWORD"), never before CJK closing punctuation nor after
 * an opening bracket; a word wider than the line is cut at a character.
 * A line of s always holds one character at least. */
size_t gw_text_line(const char *s, size_t room, size_t *skip);
/* The code point c is CJK punctuation that must not begin a line (a
 * comma, a full stop, a closing bracket or quote); an opening bracket or
 * quote that must not end one.  gw_text_line's rules and the screens'
 * (ui/draw.c). */
int gw_text_no_break_before(unsigned long c);
int gw_text_no_break_after(unsigned long c);

/* Each byte's hex digit value plus one, 0 for a byte that is none
 * (util.c). */
extern const unsigned char gw_hex_digit1[256];
/* Value of one hex digit, -1 when c is not one (inline, by the table:
 * the parsers call it for every digit of a line). */
static inline int
gw_hexval(int c)
{
	return (unsigned)c < 256 ? gw_hex_digit1[c] - 1 : -1;
}
/* How many bytes at the start of the n at p are known to hold no byte
 * below 0x20 and no DEL (nor, unless high_ok, any byte above 0x7e),
 * checked eight at a time: a caller's byte-by-byte check (with its own
 * exceptions: tab, a line's CR) starts there. */
size_t gw_plain_prefix(const char *p, size_t n, int high_ok);

/* Eight bytes at a time: w holds them (memcpy'd), and each mask has bit
 * 7 set in exactly the bytes that are so, nothing else (no carry crosses
 * from one byte to the next). */
#define GW_W7 0x8080808080808080ULL
#define GW_W1 0x0101010101010101ULL
/* the bytes below c, for c at most 0x80 */
static inline uint64_t
gw_word_below(uint64_t w, unsigned c)
{
	return ~((w & ~GW_W7) + GW_W1 * (0x80 - c)) & ~w & GW_W7;
}
/* the bytes equal to c */
static inline uint64_t
gw_word_eq(uint64_t w, unsigned c)
{
	uint64_t t = w ^ (GW_W1 * c);

	return ~(((t & ~GW_W7) + ~GW_W7) | t) & GW_W7;
}

/* Trim ASCII whitespace in place; returns s. */
char *gw_trim(char *s);

/* A certificate's SHA-256 thumbprint, "AA:BB:...:FF" (95 characters) and
 * its NUL. */
#define GW_THUMB_LEN 96
/* Thumbprint text -> "AA:BB:...:FF" in out.  Accepts upper / lower case,
 * with colons between every byte or none, and an optional "sha256
 * Fingerprint=" (or "SHA256:") prefix.  A SHA-1 thumbprint (20 bytes, as
 * older vSphere screens show) is refused with a hint.  The one syntax of
 * --thumbprint and the answers file's [host] thumbprint. */
int gw_thumbprint_normalize(const char *in, char out[GW_THUMB_LEN], gw_err *e);
/* The n bytes as "AA:BB:..." into out (n <= 32). */
void gw_thumbprint_format(const unsigned char *bytes, size_t n,
                          char out[GW_THUMB_LEN]);

#endif
