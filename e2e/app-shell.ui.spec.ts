import { axeViolations, expect, test } from './fixtures';

// The app shell Next serves around the pages: the web manifest and icon (same origin, under
// the same security headers as every page), and the not-found page a mistyped link shows.
// app/error.tsx has no trigger here: every bad link a visitor can type is a not-found, and
// forcing a server failure would mean planting one; app/error.test.ts checks what it shows.

function expectSecurityHeaders(headers: Record<string, string>, where: string) {
  expect(headers['content-security-policy'], `${where}: Content-Security-Policy`).toContain("default-src 'self'");
  expect(headers['x-content-type-options'], `${where}: X-Content-Type-Options`).toBe('nosniff');
  expect(headers['x-frame-options'], `${where}: X-Frame-Options`).toBe('DENY');
}

test('every page links the web manifest and the icon, served from this origin with the security headers', async ({ page }) => {
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) cspErrors.push(message.text());
  });
  await page.goto('/reviews');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await expect(page.locator('link[rel="icon"][type="image/svg+xml"]')).toHaveAttribute('href', '/icon.svg');

  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()['content-type']).toContain('application/manifest+json');
  expectSecurityHeaders(manifest.headers(), '/manifest.webmanifest');
  expect(await manifest.json()).toMatchObject({
    name: 'Plangate',
    short_name: 'Plangate',
    start_url: '/',
    display: 'standalone',
    theme_color: '#2952e0',
    icons: [{ src: '/icon.svg', type: 'image/svg+xml' }],
  });

  const icon = await page.request.get('/icon.svg');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  expectSecurityHeaders(icon.headers(), '/icon.svg');
  expect(await icon.text()).toContain('<svg');
  expect(cspErrors).toEqual([]);
});

test('a link to a plan that does not exist answers 404 with an accessible not-found page, on every plan page', async ({ page }) => {
  // The plan pages show a loading skeleton while they load; the status is still settled first.
  for (const path of ['/plans/doesnotexist', '/plans/doesnotexist/review', '/plans/doesnotexist/dry-run', '/plans/doesnotexist/revisions', '/plans/doesnotexist/r/1']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Not found' }), path).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Back to plans' })).toHaveAttribute('href', '/');
  expect(await axeViolations(page)).toEqual([]);
});
