import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type SubmitHandler,
  type UseFormProps,
} from 'react-hook-form';
import type { z } from 'zod';
import { useDirtyForm } from './dirty-forms';
import { errorAt } from './error-at';
import { translateRule, useI18n } from '../../lib/i18n';
import { friendlyErrors, type FieldLabels } from './form-errors';
import type { Problem } from './problem-banner';
import { saveErrorMessage, type Refusal } from './save-error';
import { useFormDraft, type DraftPlace } from './use-form-draft';
import { useServerProblem } from './use-server-problem';

export type RecordFormOptions<TValues extends FieldValues> = {
  /** The form's name in the dirty-forms registry (the update banner waits for it). */
  id: string;
  /** The record's schema, memoised by the caller: a new schema is a new resolver. */
  schema: z.ZodType;
  /** Field labels for zod's generic messages (a module constant). */
  labels: FieldLabels;
  defaultValues: DefaultValues<TValues>;
  /** The server's refusal of this record, put beside its fields once, on open. */
  problem: Problem;
  /** Whether a failed save is the tablet refusing the record by rule (db's RepositoryError). */
  isRefusal: (e: unknown) => e is Refusal;
  /** A payload path as a form field name, where the two differ (`site` → `siteLocalId`). */
  mapPath?: (path: string) => string;
  mode?: UseFormProps<TValues>['mode'];
  /** Where this form keeps a draft of what is typed (see useFormDraft); none when absent. */
  draft?: DraftPlace;
};

/**
 * What every record form needs, once: react-hook-form with the shared zod schema as resolver
 * (technician's words for zod's generic messages), its dirty state registered while mounted, the
 * server's refusal beside the fields, a save that keeps what was typed when it fails and
 * says why (`saveError`, field messages of a refusal beside their fields), and a draft of the
 * typing on the tablet that survives the tab being killed (`draft`, for FormProblems).
 *
 * `TValues` is what the fields hold, `TOut` what the schema makes of them.
 */
export function useRecordForm<TValues extends FieldValues, TOut = TValues>(
  options: RecordFormOptions<TValues>,
) {
  const { schema, labels, problem, isRefusal, mapPath } = options;
  const intl = useI18n();
  // zodResolver's types tie the form's values to the schema's input exactly; forms hold partial
  // values while typing (the schema decides), so the one cast of the resolver lives here.
  const resolver = useMemo(
    () =>
      zodResolver(schema as never, { error: friendlyErrors(labels, intl) }) as unknown as Resolver<
        TValues,
        unknown,
        TOut
      >,
    [schema, labels, intl],
  );
  const form = useForm<TValues, unknown, TOut>({
    resolver,
    defaultValues: options.defaultValues,
    mode: options.mode ?? 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { formState, setError, handleSubmit } = form;
  useDirtyForm(options.id, formState.isDirty);
  useServerProblem(problem, setError, mapPath);
  // The saved values as the form opened (react-hook-form, too, keeps only its first defaults).
  const [openedWith] = useState(() => options.defaultValues as Record<string, unknown>);
  const draft = useFormDraft(form, options.draft, openedWith);
  const [saveError, setSaveError] = useState<string | null>(null);
  // The form a Save found problems in: once their messages are drawn, the first one on screen
  // gets the focus (react-hook-form focuses the first field registered, and none where the
  // problem has no input of its own: the site picker, a list's own message).
  const refused = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    const at = refused.current;
    refused.current = null;
    if (!at) return;
    // After react-hook-form's own deferred focus, so this one stands.
    const timer = setTimeout(() => focusFirstProblem(at));
    return () => clearTimeout(timer);
  }, [formState.submitCount]);

  /**
   * The message at a field's dotted path (`arthropods.2.sex`), or null; a shared rule's or the
   * server's English wording in the person's language.
   */
  const err = (path: string) => translateRule(intl, errorAt(formState.errors, path));
  /** The form's submit handler: validates, then saves; a failed save keeps the typing. */
  const submitWith = (save: SubmitHandler<TOut>) =>
    handleSubmit(
      async (data) => {
        setSaveError(null);
        try {
          // The draft is flushed first and removed once saved (not awaited: the form, often
          // gone by now, waits on no draft), and never written again after the record.
          await draft.saving(() => Promise.resolve(save(data)));
        } catch (e) {
          setSaveError(saveErrorMessage(intl, e, isRefusal, setError, mapPath));
        }
      },
      (_errors, e) => {
        const target = e?.target;
        refused.current = target instanceof HTMLFormElement ? target : null;
      },
    );
  /** The form's Cancel: what was typed is not wanted, so its draft goes (see LeaveGuard). */
  const cancelWith = (onCancel: (() => void) | undefined) =>
    onCancel &&
    (() => {
      draft.remove();
      onCancel();
    });
  // setSaveError: for the form's other actions (remove) that fail in the same place.
  return { form, err, saveError, setSaveError, submitWith, cancelWith, draft };
}

/**
 * Focus on the form's first problem in screen order: its first field marked invalid, or else the
 * first message of a problem with no field of its own, so the technician sees what to fix.
 */
function focusFirstProblem(form: HTMLFormElement) {
  if (!form.isConnected) return;
  const field = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (field) {
    field.focus();
    return;
  }
  const message = form.querySelector<HTMLElement>('.field-error');
  if (!message) return;
  message.tabIndex = -1;
  message.focus();
}
