'use client';

import { SMALL_BUTTON } from './styles';

/**
 * Two or more joined buttons, one pressed: a choice of view ("Tasks" / "Overview", "Chart" /
 * "Table"). Pressing the one already chosen does nothing.
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="flex">
      {options.map((option, i) => (
        <button
          key={option.value}
          type="button"
          className={`${SMALL_BUTTON} ${i > 0 ? '-ml-px rounded-l-none' : ''} ${i < options.length - 1 ? 'rounded-r-none' : ''}`}
          aria-pressed={option.value === value}
          onClick={() => option.value !== value && onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
