import { SMALL_BUTTON } from '@/components/form/styles';

/** A panel over the canvas's right edge (optimise, replan): a titled dialog with a Close button. */
export function SidePanel({ title, width, onClose, children }: { title: string; width: string; onClose: () => void; children: React.ReactNode }) {
  return (
    <section
      role="dialog"
      aria-label={title}
      className={`absolute right-3 top-3 z-20 max-h-[calc(100%-1.5rem)] ${width} space-y-3 overflow-y-auto rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-xl`}
    >
      <header className="flex items-center justify-between">
        <h2 className="font-semibold">{title}</h2>
        <button type="button" className={SMALL_BUTTON} onClick={onClose}>
          Close
        </button>
      </header>
      {children}
    </section>
  );
}
