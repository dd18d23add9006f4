/**
 * The entrypoint form's data and how it is filled: empty, from the latest call ('Fill type'), from a repeated
 * operation (?hash=o…&counter=N), or from a shared simulation's data; only the last fill asked for lands.
 */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { fetchEntrypointModel, type FormSchema } from '../../../api/workspace-api';
import { isOperationHash } from '../../../shared/chain/patterns';
import type { FormData } from './SchemaForm';
import { formModel } from './form-schema';

export const NOT_CALLED = 'This contract most likely has not been called yet.';

export function useEntrypointFill(props: {
  network: string;
  address: string;
  entrypoint: FormSchema;
  /** the form's first data (a shared simulation's) */
  initialData: FormData | undefined;
  /** shows a fill's error in the panel (null: none) */
  setError: (error: string | null) => void;
}) {
  const { network, address, entrypoint, setError } = props;
  const [search] = useSearchParams();
  const [fillType, setFillType] = useState<'empty' | 'latest'>('empty');
  const [formData, setFormData] = useState<FormData>(() => props.initialData ?? {});
  const [formKey, setFormKey] = useState(0);
  // a fill (latest call, repeated operation) is on its way: the actions wait for the form it brings
  const [filling, setFilling] = useState(false);
  // only the last fill asked for lands in the form (a late answer of an earlier one is dropped)
  const fillSeq = useRef(0);

  // the API keys an entrypoint model by the entrypoint name: the form gets the entrypoint's own fields
  const load = (model: Record<string, unknown> | undefined) => {
    setFormData(formModel(entrypoint.schema, model, entrypoint.name));
    setFormKey((k) => k + 1);
  };

  // Repeat of an operation group: ?hash=o…&counter=N prefills the model.
  const hash = search.get('hash');
  const counter = Number(search.get('counter'));
  useEffect(() => {
    if (!hash || !isOperationHash(hash) || !Number.isInteger(counter) || counter < 0) return;
    const seq = ++fillSeq.current;
    setFilling(true);
    fetchEntrypointModel(network, address, {
      entrypoint: entrypoint.name,
      fill_type: 'operation',
      hash,
      counter,
    })
      .then((s) => seq === fillSeq.current && load(s?.default_model))
      .catch((e: unknown) => seq === fillSeq.current && setError(e instanceof Error ? e.message : String(e)))
      .finally(() => seq === fillSeq.current && setFilling(false));
    // load only depends on the entrypoint, whose change remounts this panel
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hash, counter, network, address, entrypoint.name]);

  const changeFill = (next: 'empty' | 'latest') => {
    setFillType(next);
    setError(null);
    const seq = ++fillSeq.current;
    if (next === 'empty') return (setFilling(false), load(undefined));
    setFilling(true);
    fetchEntrypointModel(network, address, { entrypoint: entrypoint.name, fill_type: 'latest' })
      .then((s) => {
        if (seq !== fillSeq.current) return;
        if (s?.default_model) load(s.default_model);
        else setError(NOT_CALLED);
      })
      .catch(() => seq === fillSeq.current && setError(NOT_CALLED))
      .finally(() => seq === fillSeq.current && setFilling(false));
  };

  return { fillType, changeFill, formData, setFormData, formKey, filling };
}
