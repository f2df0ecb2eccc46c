export { AnimalStoreInstrumentation, type AnimalStoreInstrumentationConfig } from './instrumentation.js';
