import {
  forwardRef,
  useImperativeHandle,
  useMemo,
  useRef,
  type ComponentRef,
  type ForwardedRef,
} from 'react';
import Form, { Templates } from '@rjsf/mui';
import type {
  ArrayFieldItemTemplateProps,
  TitleFieldProps,
  FormValidation,
  RJSFSchema,
  RJSFValidationError,
  UiSchema,
} from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import type { JsonSchema } from '@michelscope/michelson';
import { validateFormData } from './form-validation';
import { TextWidget, type HeadingLevel, type SchemaFormContext } from './ContractFillWidget';
import { rjsfForm } from './form-schema';

export type FormData = Record<string, unknown>;

interface Props {
  schema: JsonSchema;
  formData: FormData;
  onChange: (data: FormData) => void;
  disabled?: boolean;
  /** Network of the 'fill' buttons of tagged contract fields. */
  network?: string | undefined;
  /** The level of the form's titles, one under the heading the form sits beneath (3 by default). */
  headingLevel?: HeadingLevel;
}

const widgets = { TextWidget };

/**
 * `uiSchema` with `slots` added to the MUI theme's slot props (`ui:options.mui.rjsfSlotProps`): how a template
 * changes the look of the theme's own template it draws, for that template only.
 */
function withSlotProps(uiSchema: UiSchema | undefined, slots: Record<string, unknown>): UiSchema {
  const options = (uiSchema?.['ui:options'] ?? {}) as Record<string, unknown>;
  const mui = (options['mui'] ?? {}) as { rjsfSlotProps?: Record<string, unknown> };
  return {
    ...uiSchema,
    'ui:options': { ...options, mui: { ...mui, rjsfSlotProps: { ...mui.rjsfSlotProps, ...slots } } },
  };
}

const MuiArrayItem = Templates.ArrayFieldItemTemplate!;
/** The item's grid sizes: the theme keeps 8/12 of a phone's width for an item, beside its buttons. */
const ITEM_SLOTS = {
  arrayItemGridItem: { size: { xs: 12, sm: 9, md: 10, lg: 11 } },
  arrayItemToolbarGrid: {
    size: { xs: 12, sm: 'auto' },
    sx: { display: 'flex', justifyContent: 'flex-end', mt: { xs: -2, sm: -1.5 }, mb: { xs: 1, sm: 0 } },
  },
};

/**
 * An array item as the MUI theme draws it, but on a phone with the whole width (its buttons under it), so that
 * an address fits in its fields. The sizes reach only this template (not the item's own widgets).
 */
function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  return <MuiArrayItem {...props} uiSchema={withSlotProps(props.uiSchema, ITEM_SLOTS)} />;
}

const MuiTitle = Templates.TitleFieldTemplate!;
/**
 * A field's title as the MUI theme draws it, at the form's heading level (the theme's is always an h5,
 * which skipped levels under the page's h1/h2).
 */
function TitleFieldTemplate(props: TitleFieldProps) {
  const level = (props.registry.formContext as SchemaFormContext | undefined)?.headingLevel ?? 3;
  const titleTypography = { variant: 'h6', component: `h${level}` };
  return <MuiTitle {...props} uiSchema={withSlotProps(props.uiSchema, { titleTypography })} />;
}
const templates = { ArrayFieldItemTemplate, TitleFieldTemplate };

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

/**
 * RJSF's schema type is JSON Schema 7's (`type` one of its type names, `default` a JSON value); ours is the same
 * JSON, as michelson writes it, with wider field types (`type: string`, `default: unknown`): the boundary's one
 * adapter.
 */
const asRjsfSchema = (schema: JsonSchema): RJSFSchema => schema as RJSFSchema;

/** RJSF's Form instance (the MUI theme's component type also admits any class component). */
type RjsfForm = Extract<ComponentRef<typeof Form>, { validateForm: unknown }>;

/** Type of the imperative handle: RJSF's Form (validateForm() shows the errors and says if the data is valid). */
export interface SchemaFormHandle {
  validateForm: () => boolean;
}

/**
 * A parameter / storage form generated from the API's JSON schema with RJSF (MUI theme), validated with the
 * spec's messages (workspace spec §5) on top of the schema's own rules.
 */
export const SchemaForm = forwardRef(function SchemaForm(
  { schema, formData, onChange, disabled, network, headingLevel }: Props,
  ref: ForwardedRef<SchemaFormHandle>,
) {
  const form = useMemo(() => rjsfForm(schema), [schema]);
  const formRef = useRef<RjsfForm>(null);
  useImperativeHandle(ref, () => ({ validateForm: () => formRef.current?.validateForm() ?? false }), []);
  return (
    <Form
      ref={formRef}
      schema={asRjsfSchema(form.schema)}
      uiSchema={{ ...form.uiSchema, ...submit }}
      formData={formData}
      validator={validator}
      widgets={widgets}
      templates={templates}
      formContext={{ network, headingLevel } satisfies SchemaFormContext}
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
