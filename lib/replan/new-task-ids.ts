import { stepNumberOf } from '@/lib/plan';

// Replacement tasks need ids no task has. In a plan whose tasks are named step-<n>,
// templates `${step[n]…}` read those numbers, so new tasks continue the numbering;
// elsewhere a new id says which task it replaced (t3 → t3-r1).

/** The first step number above every step-<n> id in `ids` (0 when there is none). */
export function nextStepNumber(ids: Iterable<string>): number {
  let next = 0;
  for (const id of ids) {
    const n = stepNumberOf(id);
    if (n !== undefined && n >= next) next = n + 1;
  }
  return next;
}

/**
 * Hands out ids not in `taken` (and adds each to it): step-<n> numbered on from the
 * highest when `steps`, else `<replaced>-r1`, `-r2`… whichever is free first.
 */
export function newTaskIds(taken: Set<string>, steps: boolean): (replaced: string) => string {
  let step = nextStepNumber(taken);
  return (replaced) => {
    let id: string;
    if (steps) {
      while (taken.has(`step-${step}`)) step++;
      id = `step-${step++}`;
    } else {
      let k = 1;
      while (taken.has(`${replaced}-r${k}`)) k++;
      id = `${replaced}-r${k}`;
    }
    taken.add(id);
    return id;
  };
}
