// Used by `npm run test:e2e` on its own: the browser tests serve the production build.
import { ensureBuild } from './lib/setup.mjs';

ensureBuild();
