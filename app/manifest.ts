import type { MetadataRoute } from 'next';

/** The web app manifest, served at /manifest.webmanifest and linked from every page by Next. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'Plangate',
    short_name: 'Plangate',
    description: 'See, fix, dry-run and approve agent plans before anything runs.',
    start_url: '/',
    display: 'standalone',
    // brand-600 and the page background (tailwind.config.ts, app/globals.css).
    theme_color: '#2952e0',
    background_color: '#f8fafc',
    icons: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  };
}
