// Script URLs in any attribute that holds a URL, judged on the value as the browser decodes it
// (character references, tabs and newlines inside the scheme, leading blanks, any case), data:
// documents where a page would load or open them, and srcdoc read as the HTML it becomes.
import { describe } from 'bun:test';
import { html, page, site, table } from './fixtures.ts';

const SCRIPT_URL = { reason: 'script_url' };

describe('script URLs', () => {
  table(
    [
      ['a plain javascript: link', html('<a href="javascript:void(0)">x</a>'), 'LAB_EXTERNAL_SCRIPT', { ...SCRIPT_URL, attribute: 'href', file: 'index.html' }],
      ['a decimal reference', html('<a href="&#106;avascript:alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['a reference without its semicolon', html('<a href="&#106avascript:alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['hex references and &colon;', html('<a href="&#x6A;avascript&colon;alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['&Tab; inside the scheme', html('<a href="java&Tab;script:alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['&NewLine; inside the scheme', html('<a href="java&NewLine;script:alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['a raw newline inside the scheme', html('<a href="java\nscript:alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['leading blanks and mixed case', html('<a href=" \t JaVaScRiPt:alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['a leading control character', html('<a href="&#1;javascript:alert(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['an iframe src', html('<iframe src="javascript:alert(1)"></iframe>'), 'LAB_EXTERNAL_SCRIPT', { attribute: 'src' }],
      ['an embed src', html('<embed src="javascript:alert(1)">'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['an object data', html('<object data="javascript:alert(1)"></object>'), 'LAB_EXTERNAL_SCRIPT', { attribute: 'data' }],
      ['a form action', html('<form action="javascript:alert(1)"><button>go</button></form>'), 'LAB_EXTERNAL_SCRIPT', { attribute: 'action' }],
      ['a button formaction', html('<form><button formaction="javascript:alert(1)">go</button></form>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      ['an SVG xlink:href', html('<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'), 'LAB_EXTERNAL_SCRIPT', SCRIPT_URL],
      [
        'an SVG animation setting href',
        html('<svg><a href="#"><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>'),
        'LAB_EXTERNAL_SCRIPT',
      ],
      ['a vbscript: link', html('<a href="vbscript:msgbox(1)">x</a>'), 'LAB_EXTERNAL_SCRIPT', { scheme: 'vbscript' }],
      ['a javascript: link that redirects', html('<a href="&#106;avascript:location=\'https://elsewhere.example/\'">x</a>'), 'LAB_EXTERNAL_REDIRECT'],
      ['a percent-encoded wallet call', html('<a href="javascript:window.%65thereum.enable()">x</a>'), 'LAB_WALLET_CODE'],
      [
        'a data: page in an iframe',
        html('<iframe src="data:text/html,<script>alert(1)</script>"></iframe>'),
        'LAB_EXTERNAL_REDIRECT',
        { reason: 'data_document_url' },
      ],
      ['a data: page in a link', html('<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>'), 'LAB_EXTERNAL_REDIRECT', { reason: 'data_document_url' }],
      ['a data: SVG in an object', html('<object data="DATA:image/svg+xml,<svg/>"></object>'), 'LAB_EXTERNAL_REDIRECT'],
      [
        'a script URL inside srcdoc',
        html('<iframe srcdoc="&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;"></iframe>'),
        'LAB_EXTERNAL_SCRIPT',
        SCRIPT_URL,
      ],
      [
        'an external script inside an encoded srcdoc',
        html('<iframe srcdoc="&lt;script src=https://evil.example/x.js&gt;&lt;/script&gt;"></iframe>'),
        'LAB_EXTERNAL_SCRIPT',
        { reason: 'external_script_src' },
      ],
      ['an encoded script src', html('<script src="&#104;ttps://evil.example/x.js"></script>'), 'LAB_EXTERNAL_SCRIPT', { reason: 'external_script_src' }],
      [
        'an encoded meta refresh',
        site([], page('<p>x</p>', '<meta http-equiv="refresh" content="0;url=&#104;ttps://elsewhere.example/">')),
        'LAB_EXTERNAL_REDIRECT',
        { reason: 'meta_refresh' },
      ],
      [
        'an inline handler written with references',
        html('<button onclick="location=&quot;https://elsewhere.example/&quot;">x</button>'),
        'LAB_EXTERNAL_REDIRECT',
      ],
      ['a base address elsewhere', site([], page('<p>x</p>', '<base href="https://evil.example/">')), 'LAB_EXTERNAL_SCRIPT', { reason: 'external_base' }],
    ],
    [
      ['a page named javascript-guide', html('<a href="javascript-guide.html">guide</a>')],
      ['a relative path with a colon after a slash', html('<a href="./javascript:notes.html">notes</a>')],
      ['javascript: in a query string', html('<a href="https://example.org/?q=javascript:alert">search</a>')],
      ['a fragment named javascript', html('<a href="#javascript">down</a>')],
      ['javascript: in a title', html('<a title="javascript:alert(1)" href="a.html">a</a>')],
      ['an escaped ampersand in a link', html('<a href="a.html?x=1&amp;y=2">a</a>')],
      ['a data: image', html('<img src="data:image/png;base64,iVBORw0KGgo=" alt="">')],
      ['a data: text download', html('<a href="data:text/plain,hello" download="a.txt">a</a>')],
      ['a data: page as an image source', html('<img src="data:text/html,x" alt="">')],
      ['a plain srcdoc', html('<iframe srcdoc="&lt;p&gt;hello&lt;/p&gt;"></iframe>')],
      ['a local base address', site([], page('<p>x</p>', '<base href="./">'))],
      ['an SVG animation of colour', html('<svg><rect width="5" height="5"><animate attributeName="fill" values="red;blue" dur="1s"/></rect></svg>')],
    ],
  );
});
