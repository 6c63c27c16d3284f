// Owns showing a problem+json answer where it belongs: each problem next to the control whose
// generated parameter equals its `parameter`, and the rest (no parameter, or no such control) in the
// general message.
import type { ProblemBody } from '../api';
import { h } from '../dom';
import type { Param } from '../query/encode';
import { editorMessage } from '../editor/messages';

/** Whether an element is on screen (not inside a hidden panel). */
const visible = (element: HTMLElement | null): element is HTMLElement => element !== null && element.closest('[hidden]') === null;

/** The control a parameter came from: on the editor's face its `ed-` twin when that is on screen. */
function containerFor(id: string, editor: boolean): HTMLElement | null {
  const twin = document.getElementById(`ed-${id}`);
  if (editor && visible(twin)) return twin;
  const own = document.getElementById(id);
  return visible(own) ? own : null;
}

interface Problem {
  readonly code: string;
  readonly parameter: string | undefined;
  readonly detail: string;
  readonly allowed: unknown;
}

const isList = (value: unknown): boolean => Array.isArray(value);

function problemsOf(body: ProblemBody): Problem[] {
  // The body is the server's JSON, so the array check stays; Array.isArray itself would narrow the
  // declared list to any[].
  const errors = body.errors;
  const list = errors !== undefined && isList(errors) && errors.length > 0 ? errors : [body];
  return list.map((p) => ({
    code: p.code ?? '',
    parameter: p.parameter,
    detail: p.detail ?? '',
    allowed: 'allowed_from' in p && typeof p.allowed_from === 'number' ? list[p.allowed_from]?.allowed : p.allowed,
  }));
}

/** The detail, then the allowed names when the problem lists them (a limit's number is in the detail already). */
function message(problem: Problem): string {
  const detail = /[.!?]$/.test(problem.detail) || problem.detail === '' ? problem.detail : `${problem.detail}.`;
  return Array.isArray(problem.allowed) ? `${detail} Allowed: ${problem.allowed.join(', ')}.` : detail;
}

// Which controls of the container a code points at; the others in the row stay unmarked.
const culprits: Readonly<Record<string, string>> = {
  INVALID_VALUE: 'input:not([type="checkbox"]):not([type="radio"])',
  FIELD_NOT_ALLOWED: 'select[id$="-field"], input[type="checkbox"]',
};

/** Which control a problem belongs to; with repeated keys, the one whose value the detail quotes. */
function controlFor(problem: Problem, params: readonly Param[]): string | undefined {
  const candidates = params.filter((p) => p.key === problem.parameter);
  if (candidates.length <= 1) return candidates[0]?.control;
  const quoted = candidates.find((p) => p.value !== undefined && p.value !== '' && problem.detail.includes(p.value));
  return (quoted ?? candidates[0])?.control;
}

export function clearInlineProblems(): void {
  for (const element of document.querySelectorAll('.inline-error')) element.remove();
  for (const element of document.querySelectorAll('[aria-invalid="true"]')) element.removeAttribute('aria-invalid');
  for (const element of document.querySelectorAll('[aria-describedby]')) {
    const kept = (element.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '' && !id.endsWith('-error'));
    if (kept.length === 0) element.removeAttribute('aria-describedby');
    else element.setAttribute('aria-describedby', kept.join(' '));
  }
}

/** Places every problem; returns the ones that have no control, for the general message. */
export function showInlineProblems(body: ProblemBody, params: readonly Param[], editor = false): Problem[] {
  clearInlineProblems();
  const unplaced: Problem[] = [];
  let first: HTMLElement | undefined;
  for (const problem of problemsOf(body)) {
    const id = controlFor(problem, params);
    const container = id === undefined ? null : containerFor(id, editor);
    if (container === null) {
      unplaced.push(problem);
      continue;
    }
    if (editor) {
      const note = h(
        'p',
        {
          class: 'inline-error',
          id: `${container.id}-error`,
          attrs: { role: 'alert', 'data-parameter': problem.parameter, 'data-code': problem.code },
        },
        editorMessage(problem.code, problem.detail),
      );
      container.append(note);
      for (const control of container.querySelectorAll<HTMLElement>('input:not([type="checkbox"]), select')) {
        if (control.id.endsWith('-field') || control.id.endsWith('-kind')) continue;
        control.setAttribute('aria-invalid', 'true');
        control.setAttribute('aria-describedby', `${control.getAttribute('aria-describedby') ?? ''} ${note.id}`.trim());
        first ??= control;
      }
      continue;
    }
    const note = h(
      'p',
      {
        class: 'inline-error',
        id: `${id}-error`,
        attrs: { role: 'alert', 'data-parameter': problem.parameter, 'data-code': problem.code },
      },
      problem.parameter !== undefined && !problem.detail.includes(problem.parameter)
        ? h('strong', { text: `${problem.parameter}: ` })
        : null,
      message(problem),
    );
    container.append(note);
    const marked = container.querySelectorAll(culprits[problem.code] ?? 'input, select');
    for (const control of marked.length > 0 ? marked : container.querySelectorAll('input, select')) {
      control.setAttribute('aria-invalid', 'true');
      const described = control.getAttribute('aria-describedby');
      control.setAttribute('aria-describedby', described ? `${described} ${note.id}` : note.id);
    }
  }
  // On the editor's face the first control to change gets the focus, so keyboard users land on it.
  first?.focus();
  return unplaced;
}

export function problemList(problems: readonly Problem[]): HTMLElement {
  return h(
    'ul',
    {},
    ...problems.map((p) => h('li', {}, p.parameter ? h('code', { text: p.parameter }) : null, `${p.parameter ? ' ' : ''}${message(p)}`)),
  );
}
