import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ErrorPage from './error';
import GlobalError from './global-error';

// What Next hands an error boundary for a server component failure in production: a generic
// message and a digest that matches the server's log line.
function serverError(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2'), { digest: '2514393561' });
}

describe.each([
  ['app/error.tsx', ErrorPage],
  ['app/global-error.tsx', GlobalError],
])('%s', (_name, Component) => {
  it('offers "Try again" and a way home, and names the digest for an administrator', () => {
    const html = renderToStaticMarkup(createElement(Component, { error: serverError(), retry: () => {} }));
    expect(html).toContain('Try again');
    expect(html).toContain('href="/"');
    expect(html).toContain('2514393561');
  });

  it("never shows the error's message or stack", () => {
    const error = serverError();
    const html = renderToStaticMarkup(createElement(Component, { error, retry: () => {} }));
    expect(html).not.toContain('ECONNREFUSED');
    expect(html).not.toContain('hunter2');
    expect(html).not.toContain(error.stack!.split('\n')[1].trim());
  });

  it('shows no reference when the thrown value carries no digest', () => {
    const html = renderToStaticMarkup(createElement(Component, { error: 'not an Error', retry: () => {} }));
    expect(html).toContain('Try again');
    expect(html).not.toContain('Reference for an administrator');
  });
});
