import { useEffect, useId, useRef, useState } from 'react';
import { adapters, type SchemaChecker, schemaChecker, type ToolChoice } from '../../core/index.ts';
import { useServices } from '../../hooks/appContext.tsx';
import { useChoices } from '../../hooks/useChoices.ts';
import { useConversations, useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { SavedTool, ToolSetup } from '../../state/domain/types.ts';
import { toolSetupOf } from '../../state/stores/conversationStore.ts';
import { ModalDialog } from '../shared/ModalDialog.tsx';
import { schemaProblemText } from './schemaProblemText.ts';
import { emptyToolDraft, type ReadTool, readToolDraft, type ToolDraft } from './toolForm.ts';
import '../header/parameters.css';
import './tools.css';

/** The select's value for a choice: `auto`, `required`, `none`, or `tool:<name>`. */
function choiceValue(choice: ToolChoice | undefined): string {
  return !choice ? 'auto' : choice.kind === 'tool' ? `tool:${choice.name}` : choice.kind;
}

function choiceOf(value: string): ToolChoice {
  if (value.startsWith('tool:')) return { kind: 'tool', name: value.slice(5) };
  return { kind: value as 'auto' | 'required' | 'none' };
}

/**
 * The open chat's tools: those it offers (added here, or from the library of saved tools), how the model
 * may use them (`tool_choice`), and a schema its answers must match. Each change is the chat's at once.
 * The schema validator is fetched when the dialog opens.
 */
export function ToolsDialog({ conversationId, onClose }: { conversationId: string | null; onClose(): void }) {
  const { stores } = useServices();
  const i18n = useI18n();
  const { t } = i18n;
  const { protocol } = useChoices();
  const api = adapters[protocol].label;
  // A new chat is made with the first change: until then, what it would offer (Settings' defaults).
  const [id, setId] = useState(conversationId);
  const conversation = useConversations((s) => (id ? s.conversations[id] : undefined));
  const offerTools = useSettings((s) => s.settings.offerTools);
  const defaultTools = useSettings((s) => s.settings.tools);
  const library = useSettings((s) => s.settings.toolLibrary);
  const setup = toolSetupOf(conversation, { offerTools, tools: defaultTools });
  const [checker, setChecker] = useState<SchemaChecker | null>(null);
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState<ToolDraft>(emptyToolDraft);
  const [refused, setRefused] = useState<Extract<ReadTool, { ok: false }> | null>(null);
  const [outputText, setOutputText] = useState(() =>
    setup.output ? JSON.stringify(setup.output.schema, null, 2) : '',
  );
  const [outputNote, setOutputNote] = useState<string | null>(null);
  const titleId = useId();
  const ids = useId();
  const addButton = useRef<HTMLButtonElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    void schemaChecker().then((loaded) => live && setChecker(loaded));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (adding) nameInput.current?.focus();
  }, [adding]);

  const change = (next: ToolSetup) => {
    const conversations = stores.conversations.getState();
    const target = id ?? conversations.newConversation();
    setId(target);
    conversations.setToolSetup(target, next);
  };
  const names = setup.tools.map((tool) => tool.name);
  const addTool = (tool: SavedTool) => change({ ...setup, tools: [...setup.tools, tool] });
  const removeTool = (name: string) => {
    const choice = setup.choice?.kind === 'tool' && setup.choice.name === name ? undefined : setup.choice;
    change({ ...setup, tools: setup.tools.filter((tool) => tool.name !== name), choice });
  };
  const setLibrary = (toolLibrary: SavedTool[]) => stores.settings.getState().update({ toolLibrary });

  const save = () => {
    if (!checker) return;
    const read = readToolDraft(draft, checker, names);
    if (!read.ok) {
      setRefused(read);
      return;
    }
    addTool(read.tool);
    setDraft(emptyToolDraft);
    setRefused(null);
    setAdding(false);
    requestAnimationFrame(() => addButton.current?.focus());
  };

  const applyOutput = () => {
    if (!checker) return;
    const read = checker.readSchema(outputText);
    if (!read.ok) {
      setOutputNote(schemaProblemText(i18n, read.problem));
      return;
    }
    change({ ...setup, output: { name: 'answer', schema: read.schema } });
    setOutputNote(null);
  };

  const nameError = refused?.name ? t('tools.error.name', { problem: refused.name }) : null;
  const schemaError = refused?.schema ? schemaProblemText(i18n, refused.schema) : null;
  return (
    <ModalDialog labelledBy={titleId} className="parameters-dialog tools-dialog" onClose={onClose}>
      <div className="tools-body">
        <h2 id={titleId}>{t('tools.title')}</h2>
        <p className="parameters-note">{t('tools.note', { api })}</p>

        <section aria-labelledby={`${ids}-chat`} className="tools-section">
          <h3 id={`${ids}-chat`}>{t('tools.chat')}</h3>
          {setup.tools.length === 0 ? <p className="parameters-hint">{t('tools.none')}</p> : null}
          <ul className="tools-list">
            {setup.tools.map((tool) => (
              <li key={tool.name}>
                <span className="tools-item">
                  <code>{tool.name}</code>
                  {tool.description ? <span className="parameters-hint">{tool.description}</span> : null}
                  <span className="parameters-hint">
                    {t('tools.answeredBy', { template: tool.resultTemplate ? 'yes' : 'no' })}
                  </span>
                </span>
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={library.some((saved) => saved.name === tool.name)}
                  onClick={() => setLibrary([...library, tool])}
                >
                  {t('tools.keep', { name: tool.name })}
                </button>
                <button type="button" className="btn btn-small" onClick={() => removeTool(tool.name)}>
                  {t('tools.remove', { name: tool.name })}
                </button>
              </li>
            ))}
          </ul>
          <div className="parameters-field">
            <label htmlFor={`${ids}-choice`}>
              {t('tools.choice')}
              <code>tool_choice</code>
            </label>
            <select
              id={`${ids}-choice`}
              value={choiceValue(setup.choice)}
              onChange={(e) => change({ ...setup, choice: choiceOf(e.target.value) })}
            >
              <option value="auto">{t('tools.choice.option', { kind: 'auto', name: '' })}</option>
              <option value="required">{t('tools.choice.option', { kind: 'required', name: '' })}</option>
              <option value="none">{t('tools.choice.option', { kind: 'none', name: '' })}</option>
              {setup.tools.map((tool) => (
                <option key={tool.name} value={`tool:${tool.name}`}>
                  {t('tools.choice.option', { kind: 'tool', name: tool.name })}
                </option>
              ))}
            </select>
          </div>
          {adding ? null : (
            <div>
              <button ref={addButton} type="button" className="btn" onClick={() => setAdding(true)}>
                {t('tools.add')}
              </button>
            </div>
          )}
        </section>

        {adding ? (
          <form
            noValidate
            className="tools-form"
            aria-labelledby={`${ids}-new`}
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <h3 id={`${ids}-new`}>{t('tools.add')}</h3>
            <div className="parameters-field">
              <label htmlFor={`${ids}-name`}>{t('tools.name')}</label>
              <input
                ref={nameInput}
                id={`${ids}-name`}
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={draft.name}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? `${ids}-name-error` : undefined}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              />
              {nameError ? (
                <p id={`${ids}-name-error`} className="parameters-error">
                  {nameError}
                </p>
              ) : null}
            </div>
            <div className="parameters-field">
              <label htmlFor={`${ids}-description`}>{t('tools.description')}</label>
              <input
                id={`${ids}-description`}
                type="text"
                autoComplete="off"
                value={draft.description}
                onChange={(e) => setDraft({ ...draft, description: e.target.value })}
              />
            </div>
            <div className="parameters-field">
              <label htmlFor={`${ids}-schema`}>{t('tools.parameters')}</label>
              <textarea
                id={`${ids}-schema`}
                rows={6}
                spellCheck={false}
                className="tools-code"
                value={draft.parameters}
                aria-invalid={schemaError ? true : undefined}
                aria-describedby={schemaError ? `${ids}-schema-error` : undefined}
                onChange={(e) => setDraft({ ...draft, parameters: e.target.value })}
              />
              {schemaError ? (
                <p id={`${ids}-schema-error`} className="parameters-error">
                  {schemaError}
                </p>
              ) : null}
            </div>
            <div className="parameters-field">
              <label htmlFor={`${ids}-template`}>{t('tools.template')}</label>
              <textarea
                id={`${ids}-template`}
                rows={2}
                spellCheck={false}
                className="tools-code"
                aria-describedby={`${ids}-template-hint`}
                value={draft.resultTemplate}
                onChange={(e) => setDraft({ ...draft, resultTemplate: e.target.value })}
              />
              <p id={`${ids}-template-hint`} className="parameters-hint">
                {t('tools.template.hint', { example: '{{city}}' })}
              </p>
            </div>
            {refused ? (
              <p role="alert" className="parameters-error">
                {t('tools.error.refused')}
              </p>
            ) : null}
            <div className="parameters-actions">
              <span className="parameters-spacer" />
              <button
                type="button"
                className="btn"
                onClick={() => {
                  setAdding(false);
                  setRefused(null);
                }}
              >
                {t('action.cancel')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={!checker}>
                {t('action.save')}
              </button>
            </div>
          </form>
        ) : null}

        <section aria-labelledby={`${ids}-library`} className="tools-section">
          <h3 id={`${ids}-library`}>{t('tools.library')}</h3>
          {library.length === 0 ? <p className="parameters-hint">{t('tools.library.empty')}</p> : null}
          <ul className="tools-list">
            {library.map((tool) => (
              <li key={tool.name}>
                <span className="tools-item">
                  <code>{tool.name}</code>
                  {tool.description ? <span className="parameters-hint">{tool.description}</span> : null}
                </span>
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={names.includes(tool.name)}
                  onClick={() => addTool(tool)}
                >
                  {t('tools.use', { name: tool.name })}
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => setLibrary(library.filter((saved) => saved.name !== tool.name))}
                >
                  {t('tools.delete', { name: tool.name })}
                </button>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby={`${ids}-output`} className="tools-section">
          <h3 id={`${ids}-output`}>{t('tools.output')}</h3>
          <div className="parameters-field">
            <label htmlFor={`${ids}-output-schema`}>{t('tools.output.schema')}</label>
            <textarea
              id={`${ids}-output-schema`}
              rows={5}
              spellCheck={false}
              className="tools-code"
              value={outputText}
              aria-invalid={outputNote ? true : undefined}
              aria-describedby={`${ids}-output-state${outputNote ? ` ${ids}-output-error` : ''}`}
              onChange={(e) => setOutputText(e.target.value)}
            />
            <p id={`${ids}-output-state`} className="parameters-hint">
              {t('tools.output.state', { set: setup.output ? 'yes' : 'no', api })}
            </p>
            {outputNote ? (
              <p id={`${ids}-output-error`} role="alert" className="parameters-error">
                {outputNote}
              </p>
            ) : null}
          </div>
          <div className="parameters-actions">
            {setup.output ? (
              <button type="button" className="btn" onClick={() => change({ ...setup, output: undefined })}>
                {t('tools.output.stop')}
              </button>
            ) : null}
            <span className="parameters-spacer" />
            <button type="button" className="btn" disabled={!checker} onClick={applyOutput}>
              {t('tools.output.use')}
            </button>
          </div>
        </section>

        <div className="parameters-actions">
          <span className="parameters-spacer" />
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t('tools.done')}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
