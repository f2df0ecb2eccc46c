export { AnimalStoreInstrumentation } from './instrumentation.js';
