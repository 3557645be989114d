import type { JsonSchema } from '../../core/index.js';
import type { SchemaView } from '../../workflow/index.js';
import { h } from './dom.js';

/** What a field reads: a value, nothing (an optional field left empty), or what is wrong. */
type Read = { ok: true; value?: unknown } | { ok: false; error: string };

interface Field {
  el: HTMLElement;
  read(): Read;
}

/**
 * A form for JSON Schema `view`: text, number and checkbox inputs for strings, numbers and booleans, a
 * select for an enum, a fieldset for an object with properties, and a JSON text area for anything else
 * (arrays, unions, a schema that has none). Constraints are left to the server, whose 400 names them.
 * Each input's `name` is its property path (`address.city`); the root text area's is `json`.
 */
export function schemaFields(view: SchemaView | undefined): Field {
  if (!view || !('schema' in view)) {
    const field = jsonField({ name: 'json', label: '', required: true }, undefined);
    if (view) field.el.append(h('div', { class: 'meta' }, view.error));
    return field;
  }
  return fieldFor(view.schema, { name: '', label: '', required: true });
}

interface Place {
  /** The property path, '' at the root. */
  name: string;
  label: string;
  required: boolean;
}

function fieldFor(schema: JsonSchema, place: Place): Field {
  const name = place.name || 'value';
  if (Array.isArray(schema.enum)) return enumField(schema.enum, { ...place, name });
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  switch (schema.type) {
    case 'string':
      return inputField(schema, { ...place, name }, 'text');
    case 'number':
    case 'integer':
      return inputField(schema, { ...place, name }, 'number');
    case 'boolean': {
      const box = h('input', { type: 'checkbox', name, checked: schema.default === true }) as HTMLInputElement;
      const el = labelled(place, box, schema);
      el.classList.add('check');
      return { el, read: () => ({ ok: true, value: box.checked }) };
    }
    case 'object':
      if (properties) return objectField(properties, schema, place);
  }
  return jsonField(place.name ? place : { name: 'json', label: '', required: true }, schema);
}

function objectField(properties: Record<string, JsonSchema>, schema: JsonSchema, place: Place): Field {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields = Object.entries(properties).map(
    ([key, child]) =>
      [
        key,
        fieldFor(child, {
          name: place.name ? `${place.name}.${key}` : key,
          label: key,
          required: required.has(key),
        }),
      ] as const,
  );
  const body = fields.map(([, field]) => field.el);
  const el = place.name ? h('fieldset', { class: 'fields' }, h('legend', {}, place.label), body) : h('div', {}, body);
  return {
    el,
    read() {
      const value: Record<string, unknown> = {};
      for (const [key, field] of fields) {
        const read = field.read();
        if (!read.ok) return read;
        if (read.value !== undefined) value[key] = read.value;
      }
      return { ok: true, value };
    },
  };
}

function inputField(schema: JsonSchema, place: Place, type: 'text' | 'number'): Field {
  const input = h('input', {
    type,
    name: place.name,
    step: type === 'number' ? (schema.type === 'integer' ? '1' : 'any') : undefined,
    value: schema.default === undefined ? undefined : String(schema.default),
  }) as HTMLInputElement;
  return {
    el: labelled(place, input, schema),
    read() {
      const raw = input.value;
      if (raw === '' && (!place.required || type === 'number')) {
        return place.required ? { ok: false, error: `${place.name} needs a number.` } : { ok: true };
      }
      if (type === 'text') return { ok: true, value: raw };
      const n = Number(raw);
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, error: `${place.name} must be a number.` };
    },
  };
}

function enumField(values: unknown[], place: Place): Field {
  const select = h(
    'select',
    { name: place.name },
    !place.required && h('option', { value: '' }, '—'),
    values.map((v, i) => h('option', { value: String(i) }, String(v))),
  ) as HTMLSelectElement;
  return {
    el: labelled(place, select),
    read: () => (select.value === '' ? { ok: true } : { ok: true, value: values[Number(select.value)] }),
  };
}

/** A JSON text area; at the root (no label) it is the whole payload, and its messages name no field. */
function jsonField(place: Place, schema: JsonSchema | undefined): Field {
  const { name, label } = place;
  const optional = !place.required;
  const area = h('textarea', {
    name,
    rows: 4,
    class: 'grow',
    placeholder: optional ? 'JSON (optional)' : 'JSON',
    value: schema?.default === undefined ? undefined : JSON.stringify(schema.default),
  }) as HTMLTextAreaElement;
  return {
    el: labelled(place, area, schema),
    read() {
      const what = label || 'The payload';
      if (area.value.trim() === '') return optional ? { ok: true } : { ok: false, error: `${what} needs JSON.` };
      try {
        return { ok: true, value: JSON.parse(area.value) };
      } catch (error) {
        return { ok: false, error: `${what} is not JSON: ${(error as Error).message}` };
      }
    },
  };
}

function labelled(place: Place, control: HTMLElement, schema?: JsonSchema): HTMLElement {
  const hint = typeof schema?.description === 'string' ? schema.description : undefined;
  return h(
    'label',
    { class: 'field' },
    place.label && h('span', {}, place.label, place.required && place.name ? ' *' : ''),
    control,
    hint && h('span', { class: 'meta' }, hint),
  );
}

/**
 * A form that reads `view`'s fields and hands the value to `submit`; what `submit` throws (the server's
 * 400 message) shows in the form, which stays as it was filled.
 */
export function payloadForm(options: {
  id: string;
  view: SchemaView | undefined;
  label: string;
  submit(value: unknown): Promise<void>;
}): HTMLElement {
  const fields = schemaFields(options.view);
  const error = h('div', { class: 'error-text', role: 'alert' });
  const button = h('button', { class: 'btn', type: 'submit' }, options.label) as HTMLButtonElement;
  return h(
    'form',
    {
      class: 'payload',
      id: options.id,
      novalidate: true,
      onsubmit: async (e: Event) => {
        e.preventDefault();
        error.textContent = '';
        const read = fields.read();
        if (!read.ok) {
          error.textContent = read.error;
          return;
        }
        button.disabled = true;
        try {
          await options.submit(read.value);
        } catch (caught) {
          error.textContent = (caught as Error).message;
        } finally {
          button.disabled = false;
        }
      },
    },
    fields.el,
    error,
    button,
  );
}
