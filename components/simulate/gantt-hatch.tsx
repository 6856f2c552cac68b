/** Failed bars are hatched, so failure reads without colour. */
export function HatchPattern({ id }: { id: string }) {
  return (
    <defs>
      <pattern id={id} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="6" height="6" fill="#ffe4e6" />
        <line x1="0" y1="0" x2="0" y2="6" stroke="#e11d48" strokeWidth="3" />
      </pattern>
    </defs>
  );
}
