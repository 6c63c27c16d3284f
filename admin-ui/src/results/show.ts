// Owns the results area: the status line, records and navigation after a run, the statements after
// an explain, and problems (inline at their controls, the rest in the general message).
import { asProblem, busyMessage, describeFailure, type ApiResponse } from '../api';
import { h } from '../dom';
import { selectTab } from '../page';
import type { Param } from '../query/encode';
import { ui } from '../ui';
import { asCursorEnvelope, cursorNavigation } from './cursor-links';
import { explainView } from './explain';
import { asEnvelope, envelopeNavigation } from './links';
import { asSimpleEnvelope, simpleNavigation } from './simple-links';
import { clearInlineProblems, problemList, showInlineProblems } from './problems';
import { recordsOf, resultTable, type TableView } from './table';
import { editorRefusal } from '../editor/messages';

/** Empties the results and the inline problems, and says what happens next. */
export function clearResults(message: string): void {
  clearInlineProblems();
  ui.status.textContent = message;
  ui.generalError.hidden = true;
  ui.generalError.replaceChildren();
  ui.pagination.replaceChildren();
  ui.table.replaceChildren();
  ui.json.textContent = '';
}

/** The problem body next to the controls it names; what has no control goes to the general message. */
export function showProblem(response: ApiResponse, params: readonly Param[], editor = false): void {
  const busy = busyMessage(response);
  if (busy !== undefined) {
    // Nothing in the request is wrong: no control is marked, and the editor is told when to try again.
    clearInlineProblems();
    ui.generalError.replaceChildren(h('p', { text: busy }));
    ui.generalError.hidden = false;
    return;
  }
  const problem = asProblem(response.body);
  const unplaced = problem === undefined ? [] : showInlineProblems(problem, params, editor);
  const placed = problem !== undefined && unplaced.length < (problem.errors?.length || 1);
  if (editor) {
    ui.generalError.replaceChildren(
      h('p', { text: editorRefusal(placed) }),
      h('details', {}, h('summary', { text: 'Details for developers' }), h('p', { text: describeFailure(response) })),
    );
    ui.generalError.hidden = false;
    return;
  }
  ui.generalError.replaceChildren(h('p', { text: describeFailure(response) }));
  if (placed) ui.generalError.append(h('p', { text: 'The problems are shown next to the controls that caused them.' }));
  if (unplaced.length > 0 && problem?.errors !== undefined) ui.generalError.append(problemList(unplaced));
  ui.generalError.hidden = false;
}

/** A run's answer: records, navigation and time, or the problems. `params` produced the request. */
export function showRun(response: ApiResponse, params: readonly Param[], onNavigate: (url: string) => void, view: TableView): void {
  ui.json.textContent = response.body === undefined ? response.text : JSON.stringify(response.body, null, 2);
  const editor = view.scope !== undefined;
  if (!response.ok) {
    ui.status.textContent = editor ? 'Nothing to show yet.' : `HTTP ${response.status} in ${response.milliseconds} ms`;
    showProblem(response, params, editor);
    return;
  }
  const records = recordsOf(response.body) ?? [];
  const truncated = response.headers.get('X-Result-Truncated') === 'true' ? ' · cut at the row limit' : '';
  const count = `${records.length} record${records.length === 1 ? '' : 's'}`;
  ui.status.textContent = editor
    ? `${count} shown${truncated === '' ? '' : ` · only the first ${records.length}: show them page by page to see the rest`}`
    : `HTTP ${response.status} · ${count} · ${response.milliseconds} ms${truncated}`;
  const envelope = asEnvelope(response.body);
  const simple = asSimpleEnvelope(response.body);
  const cursor = asCursorEnvelope(response.body);
  if (envelope !== undefined) ui.pagination.replaceChildren(envelopeNavigation(envelope, onNavigate));
  else if (simple !== undefined) ui.pagination.replaceChildren(simpleNavigation(simple, onNavigate));
  else if (cursor !== undefined) ui.pagination.replaceChildren(cursorNavigation(cursor, onNavigate));
  ui.table.replaceChildren(resultTable(records, view));
}

/** An explain's answer in the SQL tab, or the problems (the same validation as a run). */
export function showExplain(response: ApiResponse, params: readonly Param[]): void {
  selectTab('sql');
  if (!response.ok) {
    ui.status.textContent = `Explain: HTTP ${response.status} in ${response.milliseconds} ms`;
    const off = response.status === 404 && asProblem(response.body)?.code !== 'UNKNOWN_COLLECTION';
    ui.sql.replaceChildren(
      h('p', {
        class: 'help',
        text: off ? 'Explain is not available on this server (it may be switched off).' : describeFailure(response),
      }),
    );
    showProblem(response, params);
    return;
  }
  ui.status.textContent = `Explained in ${response.milliseconds} ms`;
  ui.json.textContent = JSON.stringify(response.body, null, 2);
  ui.sql.replaceChildren(explainView(response.body));
}
