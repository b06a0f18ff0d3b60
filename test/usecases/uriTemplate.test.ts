import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as uriTemplate from '../../src/usecases/uriTemplate';
import { expandTemplate, parseTemplate, templateVariables, TemplateValue } from '../../src/usecases/uriTemplate';

// The variables of RFC 6570 section 3.2.
const VARS: Record<string, TemplateValue> = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: null,
};

// Every example of RFC 6570 sections 3.2.1–3.2.9.
const EXAMPLES: Array<[string, string]> = [
  ['{count}', 'one,two,three'], ['{count*}', 'one,two,three'], ['{/count}', '/one,two,three'], ['{/count*}', '/one/two/three'],
  ['{;count}', ';count=one,two,three'], ['{;count*}', ';count=one;count=two;count=three'], ['{?count}', '?count=one,two,three'],
  ['{?count*}', '?count=one&count=two&count=three'], ['{&count*}', '&count=one&count=two&count=three'],
  // 3.2.2 simple
  ['{var}', 'value'], ['{hello}', 'Hello%20World%21'], ['{half}', '50%25'], ['O{empty}X', 'OX'], ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'], ['{x,hello,y}', '1024,Hello%20World%21,768'], ['?{x,empty}', '?1024,'], ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'], ['{var:3}', 'val'], ['{var:30}', 'value'], ['{list}', 'red,green,blue'], ['{list*}', 'red,green,blue'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'], ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  // 3.2.3 reserved
  ['{+var}', 'value'], ['{+hello}', 'Hello%20World!'], ['{+half}', '50%25'], ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'], ['O{+empty}X', 'OX'], ['O{+undef}X', 'OX'], ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'], ['up{+path}{var}/here', 'up/foo/barvalue/here'], ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'], ['{+path:6}/here', '/foo/b/here'], ['{+list}', 'red,green,blue'], ['{+list*}', 'red,green,blue'],
  ['{+keys}', 'semi,;,dot,.,comma,,'], ['{+keys*}', 'semi=;,dot=.,comma=,'],
  // 3.2.4 fragment
  ['{#var}', '#value'], ['{#hello}', '#Hello%20World!'], ['{#half}', '#50%25'], ['foo{#empty}', 'foo#'], ['foo{#undef}', 'foo'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'], ['{#path,x}/here', '#/foo/bar,1024/here'], ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'], ['{#list*}', '#red,green,blue'], ['{#keys}', '#semi,;,dot,.,comma,,'], ['{#keys*}', '#semi=;,dot=.,comma=,'],
  // 3.2.5 label
  ['{.who}', '.fred'], ['{.who,who}', '.fred.fred'], ['{.half,who}', '.50%25.fred'], ['www{.dom*}', 'www.example.com'], ['X{.var}', 'X.value'],
  ['X{.empty}', 'X.'], ['X{.undef}', 'X'], ['X{.var:3}', 'X.val'], ['X{.list}', 'X.red,green,blue'], ['X{.list*}', 'X.red.green.blue'],
  ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'], ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'], ['X{.empty_keys}', 'X'], ['X{.empty_keys*}', 'X'],
  // 3.2.6 path
  ['{/who}', '/fred'], ['{/who,who}', '/fred/fred'], ['{/half,who}', '/50%25/fred'], ['{/who,dub}', '/fred/me%2Ftoo'], ['{/var}', '/value'],
  ['{/var,empty}', '/value/'], ['{/var,undef}', '/value'], ['{/var,x}/here', '/value/1024/here'], ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'], ['{/list*}', '/red/green/blue'], ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{/keys}', '/semi,%3B,dot,.,comma,%2C'], ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  // 3.2.7 path-style parameters
  ['{;who}', ';who=fred'], ['{;half}', ';half=50%25'], ['{;empty}', ';empty'], ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'], ['{;x,y}', ';x=1024;y=768'], ['{;x,y,empty}', ';x=1024;y=768;empty'], ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;hello:5}', ';hello=Hello'], ['{;list}', ';list=red,green,blue'], ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'], ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  // 3.2.8 form-style query
  ['{?who}', '?who=fred'], ['{?half}', '?half=50%25'], ['{?x,y}', '?x=1024&y=768'], ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?x,y,undef}', '?x=1024&y=768'], ['{?var:3}', '?var=val'], ['{?list}', '?list=red,green,blue'], ['{?list*}', '?list=red&list=green&list=blue'],
  ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'], ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  // 3.2.9 form-style continuation
  ['{&who}', '&who=fred'], ['{&half}', '&half=50%25'], ['?fixed=yes{&x}', '?fixed=yes&x=1024'], ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{&var:3}', '&var=val'], ['{&list}', '&list=red,green,blue'], ['{&list*}', '&list=red&list=green&list=blue'],
  ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'], ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

describe('RFC 6570 URI templates', () => {
  test(`every RFC 6570 section 3.2 example expands as the RFC says (${EXAMPLES.length})`, () => {
    const failures = EXAMPLES.filter(([t, want]) => expandTemplate(t, VARS) !== want).map(([t, want]) => `${t}: got ${expandTemplate(t, VARS)}, want ${want}`);
    assert.deepEqual(failures, []);
  });

  test('level 1 examples of section 1.2, unicode and literals', () => {
    assert.equal(expandTemplate('http://example.com/~{username}/', { username: 'fred' }), 'http://example.com/~fred/');
    assert.equal(expandTemplate('http://example.com/dictionary/{term:1}/{term}', { term: 'cat' }), 'http://example.com/dictionary/c/cat');
    assert.equal(expandTemplate('http://example.com/search{?q,lang}', { q: 'cat', lang: 'en' }), 'http://example.com/search?q=cat&lang=en');
    assert.equal(expandTemplate('{x}', { x: 'ü€😀' }), '%C3%BC%E2%82%AC%F0%9F%98%80');
    assert.equal(expandTemplate('{x:2}', { x: '😀ab' }), '%F0%9F%98%80a', 'the prefix counts characters, not UTF-16 units');
    assert.equal(expandTemplate('a b{x}', { x: 1 }), 'a%20b1');
    assert.equal(expandTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '42' }), 'demo://resource/dynamic/text/42');
  });

  test('variables are extracted once, in order', () => {
    assert.deepEqual(templateVariables('demo://resource/dynamic/text/{resourceId}'), ['resourceId']);
    assert.deepEqual(templateVariables('{/a,b}{?c,a*}{#d:3}x{e}'), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(templateVariables('no variables'), []);
  });

  test('bad templates are reported, never thrown', () => {
    assert.deepEqual(parseTemplate('a{b').errors, ['unclosed "{" at 1']);
    assert.equal(parseTemplate('a}b').errors.length, 1);
    assert.equal(parseTemplate('{=x}').errors.length, 1);
    assert.equal(parseTemplate('{x:0}').errors.length, 1);
    assert.equal(parseTemplate('{a b}').errors.length, 1);
    assert.equal(parseTemplate('{}').errors.length, 1);
    assert.equal(expandTemplate('a{b', { b: 'x' }), 'a%7Bb', 'an unclosed expression stays as (encoded) text');
  });

  test('there is no URI matcher: the regex-based matchTemplate backtracked catastrophically and had no caller', () => {
    // `{v0}…{v9}` against 30 characters took 75 s in it; bring one back only in linear time.
    assert.equal((uriTemplate as Record<string, unknown>).matchTemplate, undefined);
  });
});
