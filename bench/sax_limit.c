/*
 * The floor for any libxml2-based feed parser: push a file through libxml2's
 * SAX2 push parser with callbacks that do nothing. Whatever a real parser does
 * on top (keeping fields, building models, writing JSON) costs more than this.
 *
 *   cc -O2 sax_limit.c $(pkg-config --cflags --libs libxml-2.0) -o sax_limit
 *   ./sax_limit FEED.xml
 *
 * Parser options are those a safe feed parser uses: no network, entities
 * substituted only behind an external-entity loader that refuses everything,
 * never XML_PARSE_HUGE. Exits 1 when the file is not well-formed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

enum { CHUNK = 256 * 1024 };

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                     int nb_attributes, int nb_defaulted, const xmlChar **attributes) {}
static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                   const xmlChar *uri) {}
static void on_text(void *ctx, const xmlChar *text, int len) {}

static unsigned long errors;
static void on_error(void *user, xmlErrorPtr error) { errors++; }

static xmlParserInputPtr refuse_entity(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FEED.xml\n", argv[0]);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    xmlSetExternalEntityLoader(refuse_entity);

    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_text;
    sax.cdataBlock = on_text;
    sax.serror = on_error;

    static char buf[CHUNK];
    ssize_t n = read(fd, buf, 4);
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, NULL, buf, n > 0 ? (int)n : 0, argv[1]);
    if (ctxt == NULL) {
        fprintf(stderr, "%s: cannot create parser\n", argv[1]);
        return 2;
    }
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOENT | XML_PARSE_NOWARNING);
    while ((n = read(fd, buf, CHUNK)) > 0)
        xmlParseChunk(ctxt, buf, (int)n, 0);
    xmlParseChunk(ctxt, NULL, 0, 1);
    int ok = ctxt->wellFormed && n == 0;
    xmlFreeParserCtxt(ctxt);
    close(fd);
    if (!ok) {
        fprintf(stderr, "%s: not well-formed (%lu errors)\n", argv[1], errors);
        return 1;
    }
    return 0;
}
