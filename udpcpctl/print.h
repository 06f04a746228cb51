/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One printer for both output formats: each call names a JSON key and a
 * plain-text label, so no command prints the same thing twice.
 *
 * Plain text is "label value" pairs separated by spaces, in the syntax the
 * commands accept; JSON is objects with snake_case keys, numbers as numbers.
 * A NULL label prints the bare value in plain text; pr_word() prints text in
 * plain mode only.
 */
#ifndef UDPCPCTL_PRINT_H
#define UDPCPCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include "udpcpctl.h"

void pr_init(bool json, bool pretty);

/* JSON containers; no output in plain mode. @key NULL inside arrays. */
void pr_obj_open(const char *key);
void pr_obj_close(void);
void pr_arr_open(const char *key);
void pr_arr_close(void);

void pr_str(const char *key, const char *label, const char *val);
void pr_uint(const char *key, const char *label, uint64_t val);
/* Plain "label 1234ms"; the JSON key carries the unit instead. */
void pr_uint_unit(const char *key, const char *label, uint64_t val,
		  const char *unit);
/* JSON only: a detail plain text leaves out. */
void pr_json_uint(const char *key, uint64_t val);
void pr_bool(const char *key, const char *label, bool val);
/* Address and port as two JSON keys, as "label addr:port" in plain text. */
void pr_endpoint(const char *addr_key, const char *port_key,
		 const char *label, const struct endpoint *ep);
/* A JSON array of strings; plain "label a,b", nothing if empty. */
void pr_list(const char *key, const char *label, const char *const *vals,
	     size_t n);
void pr_word(const char *word);
/* Plain text: end the line; the next item starts indented by @indent. */
void pr_newline(int indent);

/*
 * End one top-level document: close what is still open (so an error in the
 * middle of a dump still leaves valid JSON), end the line, flush.
 */
void pr_finish(void);

#endif /* UDPCPCTL_PRINT_H */
