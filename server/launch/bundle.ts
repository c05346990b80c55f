import { bundleServer } from './bundle-server';

await bundleServer();
