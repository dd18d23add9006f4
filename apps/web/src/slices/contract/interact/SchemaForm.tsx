import { forwardRef, type ForwardedRef } from 'react';
import Form from '@rjsf/mui';
import type { FormValidation, RJSFValidationError, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import type { JsonSchema } from '@michelscope/michelson';
import { validateFormData } from './form-validation';
import { TextWidget, type SchemaFormContext } from './ContractFillWidget';

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

const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

/** Length and pattern errors of address-like fields are given by the spec's own texts (customValidate). */
const transformErrors = (errors: RJSFValidationError[]) =>
  errors.filter((e) => e.name !== 'minLength' && e.name !== 'maxLength' && e.name !== 'pattern');

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
  return (
    <Form
      ref={ref as never}
      schema={schema as never}
      uiSchema={uiSchema}
      formData={formData}
      validator={validator}
      widgets={widgets}
      formContext={{ network } satisfies SchemaFormContext}
      customValidate={customValidate(schema)}
      transformErrors={transformErrors}
      showErrorList={false}
      noHtml5Validate
      disabled={disabled ?? false}
      onChange={(e) => onChange((e.formData ?? {}) as FormData)}
    />
  );
});
