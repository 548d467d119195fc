import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

// Only the parts this bar chart uses, so the rest of chart.js is left out of the chunk. Registering is
// chart.js's own global setting, the same every time: doing it again changes nothing.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** What the bars show, with the words and number formats of the person's language. */
export interface ChartFigures {
  labels: string[];
  input: number[];
  output: number[];
  /** Dollars; null where nobody knows the price (no bar, never a $0 one). */
  cost: (number | null)[];
  words: { input: string; output: string; cost: string };
  locale: string;
  count(n: number): string;
  usd(dollars: number): string;
}

/** The page's own colours, so the chart follows the light or dark theme. */
function colours(canvas: HTMLCanvasElement) {
  const style = getComputedStyle(canvas);
  const variable = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: style.color,
    grid: variable('--border'),
    input: variable('--accent'),
    output: variable('--chart-output'),
    cost: variable('--chart-cost'),
  };
}

/**
 * Tokens in and out stacked on the left axis, dollars beside them on the right one. No animation: the
 * figures are what matters, and nothing moves for a person who asked for less motion.
 */
export function drawChart(canvas: HTMLCanvasElement, figures: ChartFigures): Chart {
  const c = colours(canvas);
  // The dollar axis's ticks without the currency (the legend names it, USD): a phone's axis has room for
  // `0,0005`, not for `0,00050 US$`.
  const dollars = new Intl.NumberFormat(figures.locale, { maximumSignificantDigits: 2 });
  // No axis titles: the legend names what each bar is, and a phone has no room for them.
  const axis = (format: (n: number) => string, position: 'left' | 'right') => ({
    position,
    beginAtZero: true,
    stacked: true,
    ticks: { color: c.text, maxTicksLimit: 6, callback: (value: string | number) => format(Number(value)) },
    grid: { color: c.grid, drawOnChartArea: position === 'left' },
  });
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: figures.labels,
      datasets: [
        {
          label: figures.words.input,
          data: figures.input,
          backgroundColor: c.input,
          stack: 'tokens',
          yAxisID: 'tokens',
        },
        {
          label: figures.words.output,
          data: figures.output,
          backgroundColor: c.output,
          stack: 'tokens',
          yAxisID: 'tokens',
        },
        {
          label: figures.words.cost,
          data: figures.cost,
          backgroundColor: c.cost,
          stack: 'cost',
          yAxisID: 'cost',
        },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      locale: figures.locale,
      scales: {
        // Every bar named, slanted if need be: skipping names would leave bars nobody can tell apart.
        x: { stacked: true, ticks: { color: c.text, autoSkip: false }, grid: { color: c.grid } },
        tokens: axis(figures.count, 'left'),
        cost: axis((n) => dollars.format(n), 'right'),
      },
      plugins: {
        legend: { labels: { color: c.text } },
        tooltip: {
          callbacks: {
            label: ({ dataset, raw, datasetIndex }) =>
              `${dataset.label}: ${datasetIndex === 2 ? figures.usd(Number(raw)) : figures.count(Number(raw))}`,
          },
        },
      },
    },
  });
}
