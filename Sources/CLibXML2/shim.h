#ifndef PODCASTS_CLIBXML2_SHIM_H
#define PODCASTS_CLIBXML2_SHIM_H

/*
 * libxml2 is built with ICU support and its encoding.h includes <unicode/ucnv.h>.
 * Foundation bundles its own ICU whose UErrorCode differs, so both in one Swift module
 * fail with "'UErrorCode' has different definitions". The parser never touches
 * libxml2's ICU converters: mark ucnv.h as already included and give the two types
 * encoding.h names private opaque stand-ins.
 */
#define UCNV_H
typedef struct PodcastsOpaqueUConverter UConverter;
typedef unsigned short PodcastsOpaqueUChar;
#define UChar PodcastsOpaqueUChar

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/HTMLparser.h>
#include <libxml/entities.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#undef UChar

#endif
