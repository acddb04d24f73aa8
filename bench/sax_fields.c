/*
 * The realistic floor: the push parser of sax_limit.c, plus the least work a
 * real feed parser must do: recognise the item elements by namespace URI and
 * copy nine fields of every item into malloc'd strings kept until the end
 * (models grow with the feed; nothing else is built).
 *
 *   cc -O2 sax_fields.c $(pkg-config --cflags --libs libxml-2.0) -o sax_fields
 *   ./sax_fields FEED.xml      # prints "ITEMS items, BYTES bytes kept"
 *
 * Same parser options as sax_limit.c. Exits 1 when the file is not well-formed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

enum { CHUNK = 256 * 1024 };

static const char NS_CONTENT[] = "http://purl.org/rss/1.0/modules/content/";
static const char NS_ITUNES[] = "http://www.itunes.com/dtds/podcast-1.0.dtd";

enum field { GUID, TITLE, LINK, PUB_DATE, DESCRIPTION, CONTENT, DURATION, ENC_URL, ENC_TYPE, FIELDS };

struct item {
    char *field[FIELDS];
    long long enclosure_length;
};

struct state {
    struct item *items;
    size_t count, capacity;
    int depth;      /* element depth below <item>; 0 outside an item */
    int capturing;  /* field whose text is being collected, or -1 */
    char *text;
    size_t text_len, text_cap;
    unsigned long errors;
};

static struct state st = {.capturing = -1};

static void *xalloc(void *p, size_t size) {
    p = realloc(p, size);
    if (p == NULL) {
        fputs("out of memory\n", stderr);
        exit(3);
    }
    return p;
}

static char *copy(const char *bytes, size_t len) {
    char *s = xalloc(NULL, len + 1);
    memcpy(s, bytes, len);
    s[len] = 0;
    return s;
}

static int is(const xmlChar *name, const char *want) { return strcmp((const char *)name, want) == 0; }

static int field_of(const xmlChar *name, const xmlChar *uri) {
    if (uri == NULL) {
        if (is(name, "guid")) return GUID;
        if (is(name, "title")) return TITLE;
        if (is(name, "link")) return LINK;
        if (is(name, "pubDate")) return PUB_DATE;
        if (is(name, "description")) return DESCRIPTION;
        return -1;
    }
    if (is(name, "encoded") && is(uri, NS_CONTENT)) return CONTENT;
    if (is(name, "duration") && is(uri, NS_ITUNES)) return DURATION;
    return -1;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                     int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    if (st.depth == 0) {
        if (uri == NULL && is(localname, "item")) {
            if (st.count == st.capacity) {
                st.capacity = st.capacity ? st.capacity * 2 : 64;
                st.items = xalloc(st.items, st.capacity * sizeof *st.items);
            }
            memset(&st.items[st.count++], 0, sizeof *st.items);
            st.depth = 1;
        }
        return;
    }
    st.depth++;
    if (st.depth != 2) return;
    struct item *it = &st.items[st.count - 1];
    if (uri == NULL && is(localname, "enclosure") && it->field[ENC_URL] == NULL) {
        for (int i = 0; i < nb_attributes; i++) {
            const xmlChar **a = attributes + 5 * i;
            size_t len = (size_t)(a[4] - a[3]);
            if (a[2] != NULL) continue;
            if (is(a[0], "url")) it->field[ENC_URL] = copy((const char *)a[3], len);
            else if (is(a[0], "type")) it->field[ENC_TYPE] = copy((const char *)a[3], len);
            else if (is(a[0], "length")) it->enclosure_length = strtoll((const char *)a[3], NULL, 10);
        }
        return;
    }
    int f = field_of(localname, uri);
    if (f >= 0 && it->field[f] == NULL) {
        st.capturing = f;
        st.text_len = 0;
    }
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    if (st.depth == 0) return;
    if (st.depth == 2 && st.capturing >= 0) {
        st.items[st.count - 1].field[st.capturing] = copy(st.text, st.text_len);
        st.capturing = -1;
    }
    st.depth--;
}

static void on_text(void *ctx, const xmlChar *text, int len) {
    if (st.capturing < 0) return;
    if (st.text_len + (size_t)len > st.text_cap) {
        st.text_cap = (st.text_len + (size_t)len) * 2;
        st.text = xalloc(st.text, st.text_cap);
    }
    memcpy(st.text + st.text_len, text, (size_t)len);
    st.text_len += (size_t)len;
}

static void on_error(void *user, xmlErrorPtr error) { st.errors++; }

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

    size_t kept = 0;
    for (size_t i = 0; i < st.count; i++) {
        for (int f = 0; f < FIELDS; f++) {
            if (st.items[i].field[f] != NULL) kept += strlen(st.items[i].field[f]);
            free(st.items[i].field[f]);
        }
    }
    free(st.items);
    free(st.text);
    if (!ok) {
        fprintf(stderr, "%s: not well-formed (%lu errors)\n", argv[1], st.errors);
        return 1;
    }
    printf("%zu items, %zu bytes kept\n", st.count, kept);
    return 0;
}
