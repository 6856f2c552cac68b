/** The header of a table that sets one field's two versions side by side. */
export function FieldComparisonHead({ first, second, className, fieldWidth }: { first: string; second: string; className: string; fieldWidth: string }) {
  return (
    <thead className={className}>
      <tr>
        <th scope="col" className={`${fieldWidth} font-medium`}>
          Field
        </th>
        <th scope="col" className="font-medium">
          {first}
        </th>
        <th scope="col" className="font-medium">
          {second}
        </th>
      </tr>
    </thead>
  );
}
