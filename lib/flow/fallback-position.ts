/** Where the i-th task is drawn before it has a position of its own (until the first layout lands): rows of 20. */
export const fallbackPosition = (i: number) => ({ x: (i % 20) * 280, y: Math.floor(i / 20) * 120 });
