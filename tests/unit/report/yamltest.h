/* SPDX-License-Identifier: GPL-3.0-or-later */
/* yamltest.h: reading YAML back in the report tests (libyaml's document
 * loader): a document from text, scalars, mapping values, sequence
 * items.  Each helper fails the test on a node of the wrong kind. */
#ifndef GW_YAMLTEST_H
#define GW_YAMLTEST_H

#include <string.h>
#include <yaml.h>

static TU_NOINLINE void
ydoc_load(const char *text, yaml_document_t *doc)
{
	yaml_parser_t parser;

	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
	                             strlen(text));
	if (!yaml_parser_load(&parser, doc))
		fail_msg("YAML does not parse: %s\n%s",
		         parser.problem ? parser.problem : "?", text);
	yaml_parser_delete(&parser);
	assert_non_null(yaml_document_get_root_node(doc));
}

static TU_NOINLINE const char *
yscalar(yaml_node_t *n)
{
	assert_non_null(n);
	assert_int_equal(n->type, YAML_SCALAR_NODE);
	return (const char *)n->data.scalar.value;
}

/* The value of key in a mapping node, NULL when absent. */
static TU_NOINLINE yaml_node_t *
ymap_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *pr;

	assert_non_null(map);
	assert_int_equal(map->type, YAML_MAPPING_NODE);
	for (pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = yaml_document_get_node(doc, pr->key);

		if (strcmp(yscalar(k), key) == 0)
			return yaml_document_get_node(doc, pr->value);
	}
	return NULL;
}

static TU_NOINLINE size_t
yseq_len(yaml_node_t *seq)
{
	assert_non_null(seq);
	assert_int_equal(seq->type, YAML_SEQUENCE_NODE);
	return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

static TU_NOINLINE yaml_node_t *
yseq_at(yaml_document_t *doc, yaml_node_t *seq, size_t i)
{
	assert_true(i < yseq_len(seq));
	return yaml_document_get_node(doc, seq->data.sequence.items.start[i]);
}

#endif
