/** A one-line form for a file or folder path: it hands on the trimmed path, never an empty one. */
export function PathForm(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  submitLabel: string;
  onSubmit: (path: string) => void;
  /** the submit button is off while this holds (besides an empty field) */
  busy?: boolean;
  /** shown between the field and the submit button (a native chooser) */
  children?: React.ReactNode;
}) {
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        const path = props.value.trim();
        if (path) props.onSubmit(path);
      }}
    >
      <label htmlFor={props.id}>{props.label}</label>
      <input id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)} placeholder={props.placeholder} />
      {props.children}
      <button type="submit" disabled={props.busy || !props.value.trim()}>
        {props.submitLabel}
      </button>
    </form>
  );
}
