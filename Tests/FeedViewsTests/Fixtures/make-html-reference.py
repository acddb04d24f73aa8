#!/usr/bin/env python3
"""Writes html-reference.json: HTML fragments with the text that the conformance normaliser
(shared/conformance/compare.py, `html_to_text`) makes of them, with and without paragraphs.

    python3 Tests/FeedViewsTests/Fixtures/make-html-reference.py

The fragments: hand-picked edge cases, every named character reference, seeded random
mixtures of markup, and real descriptions from shared/corpus/podcasts. Cases where HTMLText
differs on purpose (CDATA sections, C1 controls) are left out here and tested on their own.
"""
import glob, html.entities, importlib.util, json, os, random, re, sys, types
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, '..', '..', '..', '..', 'shared')
sys.modules.setdefault('feedparser', types.ModuleType('feedparser'))  # compare.py wants it
spec = importlib.util.spec_from_file_location(
    'compare', os.path.join(SHARED, 'conformance', 'compare.py'))
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)

EDGE = [
    'a &amp; b', 'a &amp b', '&ampx;', '&hellip;', '&notit;', '&nbsp;x&nbsp;&nbsp;y',
    '&#39;&#x27;&#X27;', '&#0;', '&#x110000;', '&#99999999999999999999;', '&#xD800;', '&#1;a',
    '&#11;b', '&#xFFFE;c', '&#;', '&#x;', '&#xg;', '&', 'a &', '&;', '&-amp;', '&#128;&#150;',
    'x <br> y', 'x<br><br>y', 'x <br>\n y', '<p>a</p><p>b</p>',
    '<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>', 'a < b', '<3 you', 'a<', '<',
    '<script>alert(1)</script>ok', '<style>p{}</style>x', '<!-- c -->y', 'a<!-- c -- >b',
    'a<!-- c', 'a <b', 'a <b>bold</b> c', '<SCRIPT>x</ScRiPt >y', '<script>a</p>b</script>c',
    '<a href="x>y">link</a>', "<a title='x>y'>l</a>", '<a href=x>l</a>', '<p/>x<p/>y', '</p>x',
    '</>x', '</ p>x', '</3>x', '<!DOCTYPE html>x', '<?xml v?>x', 'a\n\nb', 'a\n \n b',
    'a\r\n\r\nb', 'a\tb  c', '  lead', 'trail  ', '<div>\n<p>\nx\n</p>\n</div>', '<h1>T</h1>body',
    '<td>a</td><td>b</td>', 'a&nbsp;<br>&nbsp;<br>b', '\u00a0x\u3000y\u2028z', 'a\u200bb',
    '&NotEqualTilde;', '&nLt;', '&Tab;a&NewLine;&NewLine;b', '&AMP;&COPY', '&frac12x', '&sup2;',
    '<p>unterminated <a href="x', 'x<br/>y', 'x<BR>y', '<P>x<DIV>y', '<blockquote>q</blockquote>r',
    '<pre>  a\n  b</pre>', '<hr>x', 'para1\n\n\n\npara2', '<p></p><p></p>x', '<p> </p>x<p>\u00a0</p>y',
    '<br><br><br>x<br><br><br>', 'caf\u00e9 &eacute;t\u00e9', '&lt;b&gt;not bold&lt;/b&gt;',
    '<img src="a.png" alt="pic">text', '<a\nhref="x"\n>multi</a>', 'x<span\n>y</span>',
    'emoji \U0001F600 &#x1F600;', '<script>unterminated', '<style>x', '&#x2028;a&#x2029;b',
    'tab\tin\ttext', 'a\x0bb\x0cc', '<!---->x', '<!-- a -- b -->c', '<![if !x]>y<![endif]>z',
    '<!x>y', 'a&amp;amp;b', '&apos;&quot;', '&lt&gt&quot', '&LT;&GT', 'A&B', 'R&D <b>x</b>',
    '<a href="u?a=1&b=2">q</a>', '<p>x</P >', '<table><tr><td>1</td><td>2</td></tr></table>',
    '<dl><dt>t</dt><dd>d</dd></dl>', '<section><article>a</article></section>b',
    '<figure><figcaption>c</figcaption></figure>', '<center>c</center><address>a</address>',
    '<nav>n</nav><aside>a</aside><header>h</header><footer>f</footer>',
    'a<!-- x <b>bold</b> y', '<a title="x>y', 'x &amp; <!-- &amp; > &amp;', 'a</b x',
    '<p class="a"title=b>x', "<img alt='it''s'>y", '<br\t/>z', '<p\x0bx>y', "<a b/='x>y'>z",
    "<a ='x>y'>z", '<a b = "x>y" c>z', '<a b=x"y>z',
]

ATOMS = ['a', 'b c', ' ', '\n', '\n\n', '\t', '<p>', '</p>', '<br>', '<br/>', '<div>', '</div>',
         '<li>', '<b>', '</b>', '&amp;', '&nbsp;', '&lt;', '&#8217;', '&#x2014;', '</a>',
         '<a href="u?a=1&amp;b=2">', '<!-- c -->', '<script>s</script>', '<style>t</style>',
         'x < y', '&copy', '&', '<3', '\u00e9', '\u2019', '\u00a0', '<h2>', '</h2>',
         '<img src=x>', '<span class="z">', '</span>', '\u4e2d\u6587', '\U0001F3A7']


def entity_cases():
    names = sorted(html.entities.html5)
    for start in range(0, len(names), 60):
        yield ' '.join('(&%s)' % name for name in names[start:start + 60])


def corpus_cases():
    seen = set()
    for path in sorted(glob.glob(os.path.join(SHARED, 'corpus', 'podcasts', '*.xml'))):
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        picked = 0
        for element in root.iter():
            tag = element.tag.split('}')[-1]
            text = element.text or ''
            if tag in ('description', 'encoded', 'summary') and '<' in text and text not in seen:
                seen.add(text)
                yield text
                picked += 1
                if picked == 3:
                    break


def main():
    rng = random.Random(20240305)
    randoms = [''.join(rng.choice(ATOMS) for _ in range(rng.randint(1, 14))) for _ in range(300)]
    cases = []
    for source, inputs in (('edge', EDGE), ('entities', entity_cases()), ('random', randoms),
                           ('corpus', corpus_cases())):
        for value in inputs:
            if '<![CDATA[' in value or re.search('[\x80-\x9f]', value):
                continue
            cases.append({'source': source, 'input': value,
                          'text': compare.html_to_text(value, paragraphs=True),
                          'line': compare.html_to_text(value)})
    with open(os.path.join(HERE, 'html-reference.json'), 'w', encoding='utf-8') as out:
        json.dump(cases, out, ensure_ascii=False, indent=0)
        out.write('\n')
    print('%d cases' % len(cases))


main()
