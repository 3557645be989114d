import { h } from './dom.js';

/** Where the files go and how the zone is labelled. */
export interface FileDropOptions {
  /** Ids of the drop zone and of its file input (tests and labels find them by these). */
  id: string;
  inputId: string;
  accept: string;
  label: string;
  /** Take several files at once (a report with its traces). */
  multiple?: boolean;
  onFiles: (files: File[]) => void;
}

/** A zone that takes dropped files, with a file picker inside it for those who would rather click. */
export function fileDrop({ id, inputId, accept, label, multiple, onFiles }: FileDropOptions): HTMLElement {
  const take = (files: FileList | null | undefined) => {
    const list = Array.from(files ?? []);
    if (list.length > 0) onFiles(multiple ? list : list.slice(0, 1));
  };
  const picker = h('input', {
    type: 'file',
    id: inputId,
    accept,
    multiple,
    onchange: (e: Event) => take((e.target as HTMLInputElement).files),
  });
  const drop = h(
    'div',
    {
      class: 'drop',
      id,
      ondragover: (e: DragEvent) => {
        e.preventDefault();
        drop.classList.add('over');
      },
      ondragleave: () => drop.classList.remove('over'),
      ondrop: (e: DragEvent) => {
        e.preventDefault();
        drop.classList.remove('over');
        take(e.dataTransfer?.files);
      },
    },
    label,
    picker,
  );
  return drop;
}
