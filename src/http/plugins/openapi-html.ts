/**
 * The OpenAPI description as one accessible HTML page (/docs): operations grouped by tag, their parameters, bodies
 * and responses as lists of fields, a JSON example of each request body, and the error catalogue. Plain HTML and one
 * stylesheet, no script: nothing for a screen reader or a keyboard to get stuck in, and a CSP that allows no script.
 */
import type { ErrorDefinition } from '../../contract/errors/catalogue.js';

type Json = Record<string, unknown>;

/** What the page is built from: the description, the error catalogue, and where its logo is. */
export interface ReferenceInput {
  description: Json;
  errors: Record<string, ErrorDefinition>;
  logoUrl: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Deepest nesting of fields shown; deeper objects are named, not expanded. */
const MAX_DEPTH = 6;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const slug = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '');
/** "a" or "an" before a type name (given as HTML). */
const article = (html: string) => (/^[aeiou]/i.test(html.replace(/<[^>]+>/g, '')) ? `an ${html}` : `a ${html}`);

interface Operation {
  method: string;
  path: string;
  op: Json;
}

/**
 * Inline Markdown as the descriptions use it (`code`, [text](url), **bold**), HTML escaped. A catalogue code of five
 * or more digits links to its entry, and a mention of docs/errors.md to the error codes section.
 */
function inline(text: string, codes: ReadonlySet<string>): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\[([^\]]+)\]\(((?:#|\/|https:\/\/)[^)\s]*)\)/g, (_m, label: string, url: string) => `<a href="${url}">${label}</a>`)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/docs\/errors\.md/g, '<a href="#errors">error codes</a>')
        .replace(/(?<![\w./#-])(\d{5,6})(?![\w.-])/g, (m, code: string) => (codes.has(code) ? `<a href="#error-${code}">${m}</a>` : m));
    })
    .join('');
}

/** Paragraphs (blank lines) and "- " lists of a description. */
function block(text: string, codes: ReadonlySet<string>): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((para) => {
      const lines = para.split('\n');
      if (lines.every((l) => /^\s*- /.test(l))) return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*- /, ''), codes)}</li>`).join('')}</ul>`;
      return `<p>${inline(lines.join(' '), codes)}</p>`;
    })
    .join('');
}

class Renderer {
  private readonly codes: ReadonlySet<string>;
  private readonly schemas: Record<string, Json>;
  /**
   * Each answer's fields are listed once: the first answer with them lists them, later answers with the same fields
   * (an operation's aliases, the reports' several ways in) link to it. Repeated in full they made most of the page.
   */
  private readonly answerFields = new Map<string, { href: string; label: string }>();

  constructor(private readonly input: ReferenceInput) {
    this.codes = new Set(Object.values(input.errors).map((e) => e.code));
    this.schemas = ((input.description.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  }

  private text(s: unknown): string {
    return typeof s === 'string' ? inline(s, this.codes) : '';
  }

  /** The schema a `$ref` names, with that name; any other schema as it is. */
  private deref(schema: Json): { schema: Json; name?: string } {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return { schema };
    const name = ref.replace('#/components/schemas/', '');
    return { schema: this.schemas[name] ?? {}, name };
  }

  /** Literal values when the schema allows only those (enum, const, or anyOf of them). */
  private literals(schema: Json): unknown[] | undefined {
    if (Array.isArray(schema.enum)) return schema.enum;
    if ('const' in schema) return [schema.const];
    const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (!variants) return undefined;
    const all = variants.map((v) => this.literals(this.deref(v).schema));
    return all.every((l) => l !== undefined) ? all.flat() : undefined;
  }

  private typeName(raw: Json): string {
    const { schema, name } = this.deref(raw);
    if (name) return `<a href="#schema-${slug(name)}">${escapeHtml(name)}</a>`;
    const literals = this.literals(schema);
    if (literals && !Array.isArray(schema.enum) && !('const' in schema)) return escapeHtml(typeof literals[0]);
    const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (variants) return variants.map((v) => this.typeName(v)).join(' or ');
    const type = [schema.type ?? (schema.properties ? 'object' : 'any')].flat().join(' or ');
    if (type === 'array' && schema.items) return `array of ${this.typeName(schema.items as Json)}`;
    if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties)
      return `map of string to ${this.typeName(schema.additionalProperties as Json)}`;
    return escapeHtml(type) + (typeof schema.format === 'string' ? ` (${escapeHtml(schema.format)})` : '');
  }

  /** Limits a value must keep, in words. */
  private constraints(schema: Json): string[] {
    const out: string[] = [];
    const literals = this.literals(schema);
    if (literals) out.push(`One of ${literals.map((l) => `<code>${escapeHtml(JSON.stringify(l))}</code>`).join(', ')}`);
    const range = (min: unknown, max: unknown, unit: string) => {
      if (typeof min === 'number' && typeof max === 'number') out.push(`${min} to ${max}${unit}`);
      else if (typeof min === 'number' && min > 0) out.push(`at least ${min}${unit}`);
      else if (typeof max === 'number') out.push(`at most ${max}${unit}`);
    };
    range(schema.minLength, schema.maxLength, ' characters');
    range(schema.minItems, schema.maxItems, ' items');
    if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER)
      out.push(`from ${schema.minimum} to ${schema.maximum}`);
    else if (typeof schema.minimum === 'number' && schema.minimum !== 0) out.push(`at least ${schema.minimum}`);
    if ('default' in schema) out.push(`default <code>${escapeHtml(JSON.stringify(schema.default))}</code>`);
    return out;
  }

  /**
   * A field's name, type and whether it is required, as one line of inline text without a wrapper of its own: every
   * field of every operation has such a line, so each element in it weighs on the whole page.
   */
  private facts(name: string, schema: Json, required: boolean): string {
    const type = this.typeName(schema);
    return `<code class="field">${escapeHtml(name)}</code> <span class="type">${type}, ${required ? '<span class="required">required</span>' : 'optional'}</span>`;
  }

  private example(schema: Json): string {
    const examples = schema.examples;
    const value = Array.isArray(examples) && examples.length > 0 ? examples[0] : schema.example;
    return value === undefined ? '' : `<span class="example">Example: <code>${escapeHtml(JSON.stringify(value))}</code></span>`;
  }

  /** The fields of an object schema (or of an array's items), nested objects as nested lists. */
  fields(raw: Json, depth = 0): string {
    const { schema, name } = this.deref(raw);
    if (name && depth > 0) return '';
    const target = schema.type === 'array' && schema.items ? this.deref(schema.items as Json) : { schema, name: undefined };
    if (target.name && depth > 0) return '';
    const properties = target.schema.properties as Record<string, Json> | undefined;
    if (!properties || depth >= MAX_DEPTH) return '';
    const required = new Set((target.schema.required ?? []) as string[]);
    const items = Object.entries(properties).map(([prop, child]) => {
      const resolved = this.deref(child).schema;
      const notes = [this.text(resolved.description ?? child.description), ...this.constraints(resolved)].filter(Boolean);
      return `<li>${this.facts(prop, child, required.has(prop))}${notes.length ? `<span class="notes">${notes.join('. ')}</span>` : ''}${this.example(resolved)}${this.fields(child, depth + 1)}</li>`;
    });
    return `<ul class="fields">${items.join('')}</ul>`;
  }

  /** A JSON example built from the schema's examples (or its type where it has none). */
  sample(raw: Json, depth = 0): unknown {
    const { schema } = this.deref(raw);
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if ('example' in schema) return schema.example;
    if ('default' in schema) return schema.default;
    const literals = this.literals(schema);
    if (literals) return literals[0];
    const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (variants?.[0]) return this.sample(variants[0], depth);
    if (depth > MAX_DEPTH) return {};
    const type = [schema.type].flat()[0] ?? (schema.properties ? 'object' : undefined);
    if (type === 'object') {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Json>);
      return Object.fromEntries(props.map(([k, v]) => [k, this.sample(v, depth + 1)]));
    }
    if (type === 'array') return schema.items ? [this.sample(schema.items as Json, depth + 1)] : [];
    return { string: 'string', integer: 0, number: 0, boolean: true }[String(type)] ?? null;
  }

  private credentials(op: Json): string {
    const security = (op.security ?? this.input.description.security ?? []) as Array<Record<string, unknown>>;
    const schemes = ((this.input.description.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>;
    const headers = Object.keys(security[0] ?? {}).map((s) => `<code>${escapeHtml(String(schemes[s]?.name ?? s))}</code>`);
    return headers.length ? `Headers ${headers.join(' and ')}` : 'None';
  }

  private parameters(op: Json): string {
    const params = (op.parameters ?? []) as Json[];
    if (params.length === 0) return '';
    const groups: Array<[string, string]> = [
      ['path', 'Path parameters'],
      ['query', 'Query parameters'],
      ['header', 'Headers'],
    ];
    return groups
      .map(([where, title]) => {
        const list = params.filter((p) => p.in === where);
        if (list.length === 0) return '';
        const items = list.map((p) => {
          const schema = (p.schema ?? {}) as Json;
          const notes = [this.text(p.description), ...this.constraints(this.deref(schema).schema)].filter(Boolean);
          const example =
            p.example === undefined ? this.example(schema) : `<span class="example">Example: <code>${escapeHtml(String(p.example))}</code></span>`;
          return `<li>${this.facts(String(p.name), schema, p.required === true)}${notes.length ? `<span class="notes">${notes.join('. ')}</span>` : ''}${example}</li>`;
        });
        return `<h4>${title}</h4><ul class="fields">${items.join('')}</ul>`;
      })
      .join('');
  }

  private mediaTypes(content: Json): string {
    return Object.keys(content)
      .map((m) => `<code>${escapeHtml(m)}</code>`)
      .join(', ');
  }

  private requestBody(op: Json): string {
    const body = op.requestBody as Json | undefined;
    const content = body?.content as Record<string, Json> | undefined;
    if (!content) return '';
    const [first] = Object.values(content);
    const schema = (first?.schema ?? {}) as Json;
    const parts = [`<h4>Request body</h4><p>${body?.required ? 'Required' : 'Optional'}; as ${this.mediaTypes(content)}.</p>`];
    if (typeof body?.description === 'string') parts.push(block(body.description, this.codes));
    if (schema.format === 'binary') {
      parts.push(`<p>The file itself: ${this.text(schema.description)}.</p>`);
      const example = first?.example;
      if (typeof example === 'string') parts.push(`<p class="example-title">Example</p><pre><code>${escapeHtml(example)}</code></pre>`);
      return parts.join('');
    }
    const { name } = this.deref(schema);
    parts.push(name ? `<p>${article(this.typeName(schema))}.</p>` : this.fields(schema));
    if ('application/json' in content)
      parts.push(`<p class="example-title">Example (JSON)</p><pre><code>${escapeHtml(JSON.stringify(this.sample(schema), null, 2))}</code></pre>`);
    return parts.join('');
  }

  /** An answer's fields, or a link to the first answer with the same fields. */
  private answerFieldsOf(fields: string, status: string, id: string, title: string): string {
    const first = this.answerFields.get(fields);
    if (first) return `<p>Fields as in the <a href="${first.href}">${first.label}</a>.</p>`;
    const fieldsId = `${id}-${slug(status)}-fields`;
    this.answerFields.set(fields, { href: `#${fieldsId}`, label: `${escapeHtml(status)} answer of ${title}` });
    return `<details id="${fieldsId}"><summary>Fields of the ${escapeHtml(status)} answer</summary>${fields}</details>`;
  }

  private responses(op: Json, id: string, title: string): string {
    const entries = Object.entries((op.responses ?? {}) as Record<string, Json>);
    // What an error answer's body is, said once under the answers rather than once per error status.
    const errorBodies = new Map<string, string[]>();
    const items = entries.map(([status, response]) => {
      const content = response.content as Record<string, Json> | undefined;
      const description = String(response.description ?? '').replace(/\s*\(see docs\/errors\.md\)/, '');
      if (Number(status) >= 400) {
        const body = String((Object.values(content ?? {})[0]?.schema as Json | undefined)?.$ref ?? '').endsWith('/ComponentsErrorBody')
          ? 'ComponentsErrorBody'
          : 'ErrorBody';
        errorBodies.set(body, [...(errorBodies.get(body) ?? []), status]);
        return `<dt>${escapeHtml(status)}</dt><dd>${this.text(description)}.</dd>`;
      }
      if (!content) return `<dt>${escapeHtml(status)}</dt><dd>${this.text(description)}; no body.</dd>`;
      const schema = (Object.values(content)[0]?.schema ?? {}) as Json;
      const { name } = this.deref(schema);
      const shape = name
        ? `<p>${article(this.typeName(schema))}, as ${this.mediaTypes(content)}.</p>`
        : `<p>As ${this.mediaTypes(content)}: ${article(this.typeName(schema))}.</p>`;
      const fields = name ? '' : this.fields(schema);
      return `<dt>${escapeHtml(status)}</dt><dd><p>${this.text(description)}.</p>${shape}${fields ? this.answerFieldsOf(fields, status, id, title) : ''}</dd>`;
    });
    const errors = [...errorBodies].map(([body, statuses]) => {
      const which = errorBodies.size === 1 ? 'an error answer' : `the ${statuses.map(escapeHtml).join(', ')} answers`;
      // Connect Components answer errors in a body of their own, its ReasonCode being the error code.
      const code = body === 'ComponentsErrorBody' ? 'ReasonCode' : 'code';
      return `<p>The body of ${which} is ${article(`<a href="#schema-${body}">${body}</a>`)} whose <code>${code}</code> is one of the <a href="#errors">error codes</a>.</p>`;
    });
    return `<h4>Responses</h4><dl class="responses">${items.join('')}</dl>${errors.join('')}`;
  }

  private operation({ method, path, op }: Operation): string {
    const id = `operation-${slug(String(op.operationId ?? `${method}-${path}`))}`;
    const title = escapeHtml(String(op.summary ?? op.operationId ?? path));
    return `<section class="operation" id="${id}" aria-labelledby="${id}-title">
<h3 id="${id}-title"><span class="method method-${method}">${method.toUpperCase()}</span> ${title}</h3>
<p class="path"><code>${escapeHtml(path)}</code></p>
${typeof op.description === 'string' ? block(op.description, this.codes) : ''}
<p class="credentials"><span class="label">Credentials:</span> ${this.credentials(op)}. <span class="label">Operation id:</span> <code>${escapeHtml(String(op.operationId ?? ''))}</code></p>
${this.parameters(op)}${this.requestBody(op)}${this.responses(op, id, title)}
</section>`;
  }

  private operations(): Map<string, Operation[]> {
    const byTag = new Map<string, Operation[]>();
    for (const [path, item] of Object.entries((this.input.description.paths ?? {}) as Record<string, Json>)) {
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        const tag = String(((op.tags ?? []) as string[])[0] ?? 'Other');
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag)!.push({ method, path, op });
      }
    }
    return byTag;
  }

  private errorCodes(): string {
    const rows = Object.entries(this.input.errors)
      .sort(([, a], [, b]) => Number(a.code) - Number(b.code))
      .map(
        ([name, e]) =>
          `<div class="error" id="error-${escapeHtml(e.code)}"><dt><span class="code">${escapeHtml(e.code)}</span> <code>${escapeHtml(name)}</code> <span class="status">HTTP ${e.status}</span></dt><dd><p>${this.text(e.message)}</p><p>${this.text(e.when)}</p></dd></div>`,
      );
    return `<section id="errors" aria-labelledby="errors-title"><h2 id="errors-title">Error codes</h2>
<p>Every error answer has the body <code>{"code": "...", "message": "..."}</code> (JSON) or <code>&lt;error&gt;&lt;code&gt;...&lt;/code&gt;&lt;message&gt;...&lt;/message&gt;&lt;/error&gt;</code> (XML), with the HTTP status below. Match on <code>code</code>: messages may be more specific than these defaults.</p>
<dl class="errors">${rows.join('')}</dl></section>`;
  }

  private namedSchemas(): string {
    const items = Object.entries(this.schemas).map(([name, schema]) => {
      const id = `schema-${slug(name)}`;
      return `<section class="schema" id="${id}" aria-labelledby="${id}-title"><h3 id="${id}-title">${escapeHtml(name)}</h3>${block(String(schema.description ?? ''), this.codes)}${this.fields({ ...schema, $ref: undefined })}</section>`;
    });
    return `<section id="schemas" aria-labelledby="schemas-title"><h2 id="schemas-title">Schemas</h2>${items.join('')}</section>`;
  }

  /** The navigation and the main content of the page. */
  render(): { nav: string; main: string } {
    const info = (this.input.description.info ?? {}) as Json;
    const servers = (this.input.description.servers ?? []) as Json[];
    const byTag = this.operations();
    const tagId = (tag: string) => `tag-${slug(tag)}`;
    const nav = `<nav class="toc" aria-label="Contents"><ul>
<li><a href="#overview">Overview</a></li>
${[...byTag]
  .map(
    ([tag, ops]) =>
      `<li><a href="#${tagId(tag)}">${escapeHtml(tag)}</a><ul class="toc-operations">${ops
        .map(({ method, path, op }) => {
          const title = String(op.summary ?? op.operationId);
          // Aliases share a summary: their first path segment tells them apart.
          const alias =
            ops.filter((o) => o.op.summary === op.summary).length > 1 ? ` <span class="toc-path">/${escapeHtml(path.split('/')[1] ?? '')}</span>` : '';
          return `<li><a href="#operation-${slug(String(op.operationId ?? `${method}-${path}`))}"><span class="method method-${method}">${method.toUpperCase()}</span> ${escapeHtml(title)}${alias}</a></li>`;
        })
        .join('')}</ul></li>`,
  )
  .join('\n')}
<li><a href="#errors">Error codes</a></li>
<li><a href="#schemas">Schemas</a></li>
</ul></nav>`;
    const overview = `<section id="overview" aria-labelledby="overview-title"><h1 id="overview-title">${escapeHtml(String(info.title ?? 'API'))} <span class="version">${escapeHtml(String(info.version ?? ''))}</span></h1>
${block(String(info.description ?? ''), this.codes)}
<ul class="facts-list">
${servers[0] ? `<li>Base URL: <code>${escapeHtml(String(servers[0].url))}</code></li>` : ''}
<li>Credentials: the headers <code>Service-App-Key</code> (the partner's app key) and <code>Service-App-Token</code> (a token from <a href="#operation-CreateToken">partner authentication</a>, valid two hours) unless an operation says otherwise.</li>
<li>The description itself: <a href="/openapi.json">/openapi.json</a>, <a href="/openapi.yaml">/openapi.yaml</a> (OpenAPI ${escapeHtml(String(this.input.description.openapi ?? ''))}).</li>
</ul></section>`;
    const tags = [...byTag]
      .map(
        ([tag, ops]) =>
          `<section class="tag" id="${tagId(tag)}" aria-labelledby="${tagId(tag)}-title"><h2 id="${tagId(tag)}-title">${escapeHtml(tag)}</h2>${ops.map((o) => this.operation(o)).join('\n')}</section>`,
      )
      .join('\n');
    return { nav, main: `${overview}\n${tags}\n${this.errorCodes()}\n${this.namedSchemas()}` };
  }
}

/** The whole /docs page for an OpenAPI description. */
export function renderReferencePage(input: ReferenceInput): string {
  const { nav, main } = new Renderer(input).render();
  const info = (input.description.info ?? {}) as Json;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(String(info.title ?? 'API'))} reference</title>
<link rel="icon" type="image/svg+xml" href="${escapeHtml(input.logoUrl)}">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/docs"><img src="${escapeHtml(input.logoUrl)}" alt="Ledgerlink" width="155" height="37"></a><span class="top-title">API reference</span><a class="top-link" href="/dashboard">Dashboard</a></header>
<div class="layout">
${nav}
<main id="main" tabindex="-1">
${main}
</main>
</div>
</body>
</html>
`;
}
