import type { FormHTMLAttributes, ReactNode } from 'react';
import styles from './form.module.css';

const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;

/**
 * The attributes that tie a control to its label, its help and its error for screen
 * readers; pass `help` when the Field has one.
 */
export function controlProps(id: string, error: string | undefined, { help = false } = {}) {
  return {
    id,
    name: id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(Boolean(error) && `${id}-error`, help && `${id}-help`),
  };
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className={styles.error}>
      {error}
    </p>
  );
}

/** A form's vertical rhythm: one column, every label, control, help and error on the same left edge. */
export function Form({ className, ...props }: FormHTMLAttributes<HTMLFormElement>) {
  return <form className={[styles.form, className].filter(Boolean).join(' ')} {...props} />;
}

/**
 * One labelled control: label, control, error, help. Text controls fill the form's
 * width (a URL needs it); a select is as wide as its longest choice.
 */
export function Field({
  id,
  label,
  help,
  error,
  children,
}: {
  id: string;
  label: string;
  help?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children}
      <FieldError id={id} error={error} />
      {help && (
        <p id={`${id}-help`} className={styles.help}>
          {help}
        </p>
      )}
    </div>
  );
}

/** A group of checkboxes or radios under one legend, laid out in as many columns as fit. */
export function ChoiceGroup({
  id,
  legend,
  help,
  error,
  children,
}: {
  id: string;
  legend: string;
  help?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={styles.fieldset} aria-describedby={describedBy(Boolean(error) && `${id}-error`, Boolean(help) && `${id}-help`)}>
      <legend className={styles.label}>{legend}</legend>
      {help && (
        <p id={`${id}-help`} className={styles.help}>
          {help}
        </p>
      )}
      <div className={styles.choices}>{children}</div>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}

/** One checkbox or radio (`children`) with its name and, below it, what choosing it means. */
export function Choice({ label, description, children }: { label: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <label className={styles.choice}>
      {children}
      <span>
        <span className={styles.choiceLabel}>{label}</span>
        {description && <span className={styles.choiceDescription}>{description}</span>}
      </span>
    </label>
  );
}

/** Controls side by side that wrap as a whole rather than squeeze: a select and its button. */
export function ControlGroup({ children }: { children: ReactNode }) {
  return <div className={styles.group}>{children}</div>;
}

/** The buttons that end a form, apart from its last field. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}
