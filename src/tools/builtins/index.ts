export { askUserTool, NO_ANSWER } from './ask-user.js';
export type { BuiltinOptions } from './builtin-options.js';
export { calculate, calculatorTool } from './calculator.js';
export { addToDate, currentTimeTool, datetimeTools, diffDates } from './datetime.js';
export { demoHolidayTool, demoMovieTool, demoSearchTool, demoTools, demoWeatherTool } from './demo-tools.js';
export { type WebSearchProvider, type WebSearchResult, webSearchTool } from './search/web-search-tool.js';
export { convertUnits, convertUnitsTool, unitTools } from './units.js';
