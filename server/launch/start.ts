import { runMain } from './main';
import { serve } from './serve';

runMain('production', () => serve('start'));
