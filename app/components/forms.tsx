import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react'

export type ListOfErrors = Array<string | null | undefined> | null | undefined

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const list = errors?.filter(Boolean)
  if (!list?.length) return null
  return (
    <ul id={id} className="error-list">
      {list.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  )
}

export function Field({
  label,
  inputProps,
  errors,
  hint,
}: {
  label: ReactNode
  inputProps: InputHTMLAttributes<HTMLInputElement>
  errors?: ListOfErrors
  hint?: ReactNode
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...inputProps} />
      {hint ? <span className="small muted">{hint}</span> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

export function TextareaField({
  label,
  textareaProps,
  errors,
}: {
  label: ReactNode
  textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement>
  errors?: ListOfErrors
}) {
  const fallbackId = useId()
  const id = textareaProps.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="input" aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...textareaProps} />
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}
