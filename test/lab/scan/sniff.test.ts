// A file's content must be what its name says: magic bytes for images and fonts (and no page
// hidden behind them), no binary signature at the start of a text file, a stylesheet that reads
// as CSS rather than as a script or a page. Near misses that are what they claim must pass.
import { describe } from 'bun:test';
import { bytes, file, site, table } from './fixtures.ts';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0];
const BAD = 'LAB_BAD_TYPE';
const MISMATCH = { reason: 'content_does_not_match_extension' };

describe('content sniffing', () => {
  table(
    [
      [
        'a stylesheet holding a script',
        site([file('style.css', "document.body.innerHTML = '';\nalert(1)")]),
        BAD,
        { reason: 'css_holds_script', file: 'style.css' },
      ],
      ['a stylesheet holding a function', site([file('a.css', 'function run() { return location.href }')]), BAD, { reason: 'css_holds_script' }],
      ['a stylesheet holding a page', site([file('a.css', '<!doctype html><html><body>x</body></html>')]), BAD, { reason: 'css_holds_markup' }],
      ['a page with a GIF header', site([file('a.html', 'GIF89a<script>alert(1)</script>')]), BAD, { ...MISMATCH, found: 'gif' }],
      ['a script with a GIF header', site([file('a.js', 'GIF89a=1; alert(1)')]), BAD, { ...MISMATCH, found: 'gif' }],
      ['a text file that is a PDF', site([file('a.txt', '%PDF-1.7\n1 0 obj')]), BAD, { ...MISMATCH, found: 'pdf' }],
      ['a stylesheet that is a WOFF2 font', site([file('a.css', 'wOF2 body{}')]), BAD, { found: 'woff2' }],
      ['a PNG holding a page after its header', site([file('a.png', bytes(PNG, '<html><script>alert(1)</script>'))]), BAD, { reason: 'markup_in_binary' }],
      ['a GIF holding a script tag', site([file('a.gif', bytes('GIF89a', [1, 0, 1, 0], '<SCRIPT>alert(1)</SCRIPT>'))]), BAD, { reason: 'markup_in_binary' }],
      ['a JPEG holding a doctype', site([file('a.jpg', bytes(JPEG, '<!DOCTYPE html><p>x'))]), BAD, { reason: 'markup_in_binary' }],
      ['a PNG that is a page', site([file('a.png', '<!doctype html><p>x</p>')]), BAD, { ...MISMATCH, found: 'text' }],
      ['a PNG that is a JPEG', site([file('a.png', bytes(JPEG))]), BAD, { ...MISMATCH, found: 'jpg' }],
      ['a WebP that is a PNG', site([file('a.webp', bytes(PNG))]), BAD, { ...MISMATCH, found: 'png' }],
    ],
    [
      ['a stylesheet whose comment mentions a function', site([file('a.css', '/* this function () { } draws the grid */ .grid { display: grid }')])],
      ['a stylesheet with a script in a string', site([file('a.css', 'a::after { content: "function() { return 1 }" }')])],
      ['a stylesheet with old hacks', site([file('a.css', '.x { *zoom: 1; _height: 1px; color: red }')])],
      ['a stylesheet that is also valid JavaScript', site([file('a.css', 'body { margin: 0 }')])],
      ['a stylesheet opening with <!--', site([file('a.css', '<!-- a { color: red } -->')])],
      ['a page starting with a BOM', site([file('a.html', '\uFEFF<!doctype html><title>x</title><p>x</p>')])],
      ['a page starting with a comment', site([file('a.html', '<!-- built by hand -->\n<!doctype html><p>x</p>')])],
      ['a page that is plain text', site([file('a.html', 'Just a line of text.')])],
      [
        'an SVG with an XML prolog',
        site([file('a.svg', '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>')]),
      ],
      ['a JSON array', site([file('a.json', '[1, 2, 3]')])],
      ['JSON holding markup in a string', site([file('a.json', '{"snippet": "<html><script>"}')])],
      ['a text file that starts like a GIF', site([file('a.txt', 'GIF89 was the year of the format')])],
      ['a text file that mentions a script tag', site([file('a.txt', 'Use <script src> to load it.')])],
      ['a PNG', site([file('a.png', bytes(PNG, [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44]))])],
      ['a JPEG with XMP metadata', site([file('a.jpg', bytes(JPEG, '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'))])],
      ['a WOFF2 font', site([file('f.woff2', bytes('wOF2', [0, 1, 0, 0]))])],
      ['an icon', site([file('favicon.ico', bytes([0, 0, 1, 0, 1, 0, 16, 16]))])],
    ],
  );
});
