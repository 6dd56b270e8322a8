import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_XML_DEPTH, parseXmlDocument } from '../../src/contract/xml/parse.js';

const MiB = 1 << 20;

/** Bodies of about 1 MiB built to make a scanner or parser do more than linear work. */
const hostileXmlBodies: Record<string, string> = {
  'many unclosed <': '<r>' + '<'.repeat(MiB - 5) + '/>',
  'many < with a closed root': '<r>' + '<'.repeat(MiB - 9) + '/></r>',
  'many distinct attributes': '<r ' + Array.from({ length: MiB / 12 }, (_, i) => `a${i}="b"`).join(' ') + '/>',
  'one long attribute value': '<r a="' + 'x'.repeat(MiB) + '"/>',
  'many < inside an attribute value': '<r a="' + '<'.repeat(MiB) + '"/>',
  'many &amp;': '<r>' + '&amp;'.repeat(MiB / 5) + '</r>',
  'many &': '<r>' + '&'.repeat(MiB) + '</r>',
  'many character references': '<r>' + '&#65;'.repeat(MiB / 5) + '</r>',
  'deep nesting': '<a>'.repeat(MiB / 7) + '</a>'.repeat(MiB / 7),
  'many unclosed comments': '<r>' + '<!--'.repeat(MiB / 4) + '</r>',
};
const plainBody = '<r>' + '<a>x</a>'.repeat((MiB - 7) / 8) + '</r>';

function cost(text: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    try {
      parseXmlDocument(text);
    } catch {
      /* refused is fine: only the time matters here */
    }
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('the cost of hostile XML bodies', () => {
  let plain: number;
  beforeAll(() => {
    plain = cost(plainBody);
  });

  it.each(Object.keys(hostileXmlBodies))('%s costs at most three times a plain body of the same size', (name) => {
    const hostile = cost(hostileXmlBodies[name]!);
    expect(hostile / plain, `${name}: ${hostile.toFixed(0)} ms, plain ${plain.toFixed(0)} ms`).toBeLessThan(3);
  });
});

describe('the XML nesting limit', () => {
  const nested = (levels: number, open = (i: number) => `<e${i}>`, close = (i: number) => `</e${i}>`) => {
    let text = '';
    for (let i = 0; i < levels; i++) text += open(i);
    for (let i = levels - 1; i >= 0; i--) text += close(i);
    return text;
  };

  it(`accepts exactly ${MAX_XML_DEPTH} levels and refuses ${MAX_XML_DEPTH + 1} (code 10045)`, () => {
    expect(() => parseXmlDocument(nested(MAX_XML_DEPTH))).not.toThrow();
    expect(() => parseXmlDocument(nested(MAX_XML_DEPTH + 1))).toThrow(expect.objectContaining({ code: '10045' }));
  });

  it('cannot be bypassed with /> inside attribute values', () => {
    const text = nested(
      99,
      (i) => `<a${i} x="/>">`,
      (i) => `</a${i}>`,
    );
    expect(() => parseXmlDocument(text)).toThrow(expect.objectContaining({ code: '10045' }));
  });

  it('cannot be bypassed with > inside attribute values', () => {
    const text = nested(
      99,
      (i) => `<a${i} x="a>b" y='/>'>`,
      (i) => `</a${i}>`,
    );
    expect(() => parseXmlDocument(text)).toThrow(expect.objectContaining({ code: '10045' }));
  });

  it('does not count self-closing leaves as a level', () => {
    expect(() => parseXmlDocument(nested(MAX_XML_DEPTH).replace('</e31>', '<leaf/></e31>'))).not.toThrow();
  });
});
