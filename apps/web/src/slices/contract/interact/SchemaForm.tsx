import { forwardRef, useMemo, type ForwardedRef } from 'react';
import Form from '@rjsf/mui';
import type { FormValidation, RJSFValidationError, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import type { JsonSchema } from '@michelscope/michelson';
import { validateFormData } from './form-validation';
import { TextWidget, type SchemaFormContext } from './ContractFillWidget';
import { rjsfForm } from './form-schema';

export type FormData = Record<string, unknown>;

interface Props {
  schema: JsonSchema;
  formData: FormData;
  onChange: (data: FormData) => void;
  disabled?: boolean;
  /** Network of the 'fill' buttons of tagged contract fields. */
  network?: string | undefined;
}

const widgets = { TextWidget };

const submit: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

/**
 * Every field error is one of the spec's texts (customValidate): the schema validator's own messages ('must be
 * integer', 'must NOT have fewer than 36 characters', …) never reach the user.
 */
const transformErrors = (_errors: RJSFValidationError[]) => [];
const ignoreErrors = () => undefined;

function customValidate(schema: JsonSchema) {
  return (data: FormData | undefined, errors: FormValidation<FormData>) => {
    for (const { path, message } of validateFormData(schema, data ?? {})) {
      let node: unknown = errors;
      for (const key of path) {
        const next = (node as Record<string | number, unknown> | undefined)?.[key];
        if (next === undefined) break;
        node = next;
      }
      (node as { addError?: (m: string) => void } | undefined)?.addError?.(message);
    }
    return errors;
  };
}

/** Type of the imperative handle: RJSF's Form (validateForm() shows the errors and says if the data is valid). */
export interface SchemaFormHandle {
  validateForm: () => boolean;
}

/**
 * A parameter / storage form generated from the API's JSON schema with RJSF (MUI theme), validated with the
 * spec's messages (workspace spec §5) on top of the schema's own rules.
 */
export const SchemaForm = forwardRef(function SchemaForm(
  { schema, formData, onChange, disabled, network }: Props,
  ref: ForwardedRef<SchemaFormHandle>,
) {
  const form = useMemo(() => rjsfForm(schema), [schema]);
  return (
    <Form
      ref={ref as never}
      schema={form.schema as never}
      uiSchema={{ ...form.uiSchema, ...submit }}
      formData={formData}
      validator={validator}
      widgets={widgets}
      formContext={{ network } satisfies SchemaFormContext}
      customValidate={customValidate(schema)}
      transformErrors={transformErrors}
      showErrorList={false}
      // the errors show under their fields; without a handler RJSF also logs them to the console
      onError={ignoreErrors}
      noHtml5Validate
      disabled={disabled ?? false}
      onChange={(e) => onChange((e.formData ?? {}) as FormData)}
    />
  );
});
