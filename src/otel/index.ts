export { PetStoreInstrumentation, type PetStoreInstrumentationConfig } from './instrumentation.js';
